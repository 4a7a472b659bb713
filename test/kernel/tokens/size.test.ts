import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMemctx } from '../../helpers/run.js';
import { copyFixture, removeDir, tempDir } from '../../helpers/cli.js';
import { parseTokenSize } from '../../../src/kernel/tokens/size.js';

describe('one size parser for every option that takes tokens', () => {
  let root: string;
  let dir: string;
  beforeAll(() => {
    root = tempDir();
    dir = copyFixture('seed-memory', root);
  });
  afterAll(() => removeDir(root));

  it('parses plain numbers and k/m suffixes, refuses the rest', () => {
    expect(parseTokenSize('200000')).toBe(200_000);
    expect(parseTokenSize('200k')).toBe(200_000);
    expect(parseTokenSize('1.5M')).toBe(1_500_000);
    expect(parseTokenSize(' 25K ')).toBe(25_000);
    for (const bad of ['0', '-5', '1.5', 'lots', '', '10%', '0k']) expect(parseTokenSize(bad)).toBeUndefined();
  });

  it('pack --window 200k like status --window 200k', async () => {
    const r = await runMemctx(['--dir', dir, 'pack', '--window', '200k', '--budget', '1%', '--json'], { cwd: root });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).budget).toBe(2000);
  });

  it('pack --budget 2k', async () => {
    const r = await runMemctx(['--dir', dir, 'pack', '--budget', '2k', '--json'], { cwd: root });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).budget).toBe(2000);
  });

  it('the same message for a bad size everywhere', async () => {
    const pack = await runMemctx(['--dir', dir, 'pack', '--budget', 'lots'], { cwd: root });
    expect(pack.code).toBe(2);
    expect(pack.stderr).toContain('--budget must be a positive number of tokens, got "lots"');
    expect(pack.stderr).toContain('e.g. --budget 25000, --budget 25k or --budget 1m');
    const flush = await runMemctx(['--dir', dir, 'flush', '--goal', 'x', '--max', 'lots'], { cwd: root });
    expect(flush.code).toBe(2);
    expect(flush.stderr).toContain('--max must be a positive number of tokens, got "lots"');
  });

  it('flush --target 1k --max 2k are accepted', async () => {
    const r = await runMemctx(['--dir', dir, 'flush', '--goal', 'try sizes', '--target', '1k', '--max', '2k', '--json'], { cwd: root });
    expect(r.stderr).not.toContain('error');
    expect(r.code).toBe(0);
  });
});
