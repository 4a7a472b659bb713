import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, removeDir } from '../../helpers/cli.js';
import { runCli } from '../../helpers/run.js';
import { loadTokenCounter } from '../../../src/kernel/tokens/index.js';

let dir: string;
beforeAll(() => {
  dir = copyFixture('transcripts');
});
afterAll(() => removeDir(resolve(dir, '..')));
const run = async (args: string[], input?: string) => await runCli(args, { cwd: dir, input });

describe('memctx compact', () => {
  it('writes the compacted Markdown to stdout and the report to stderr', async () => {
    const r = await run(['compact', 'claude-long.jsonl']);
    expect(r.code).toBe(0);
    const counter = await loadTokenCounter();
    const after = counter.count(r.stdout);
    expect(r.stdout.startsWith('# Transcript: claude-long.jsonl (compacted by memctx)\n\n### User (line 1)\n')).toBe(true);
    expect(r.stdout).toContain('[same output as the Bash command: npm test -- payments result at line 3 (occurrence 2)]');
    expect(r.stdout).toContain('[… 55 of 69 lines left out; kept the first 10, 4 error or test lines …]');
    expect(r.stdout).toContain('✓ The file /home/dev/shop/src/payments/queue.ts has been updated.');
    const lines = r.stderr.split('\n');
    expect(lines[0]).toMatch(new RegExp(`^compacted claude-long.jsonl: ([\\d,]+) → ${after.toLocaleString('en-US')} tokens \\(saved [\\d,]+, [\\d.]+%\\)$`));
    expect(lines.slice(1)).toEqual([
      '  1 repeated tool output collapsed · 2 long outputs condensed · 1 confirmation shortened',
      '  kept verbatim: 5 marked lines, the last exchanges from line 13',
      '  all 5 marked lines survived',
      '',
    ]);
  });
  it('keeps every marked line verbatim', async () => {
    const { stdout } = await run(['compact', 'claude-long.jsonl', '--keep-last', '0']);
    for (const line of [
      'DECISION: use createQueueClient() everywhere; the legacy queue has no retry support.',
      '[2026-03-06T11:05:40Z] warning: TODO: drop the legacy queue shim once BUG-412 is fixed',
      '[2026-03-06T11:11:02Z] warning: TODO: drop the legacy queue shim once BUG-412 is fixed',
      'BLOCKER: the staging queue credentials expire on Friday; ISSUE-77 tracks the rotation.',
      'TODO: remove src/payments/shim.ts after the release.',
    ]) {
      expect(stdout).toContain(line);
    }
  });
  it('reports tokens before and after as JSON, with --out writing the file', async () => {
    const r = await run(['--json', 'compact', 'claude-long.jsonl', '--out', 'compacted.md', '--keep-last', '2']);
    expect(r.code).toBe(0);
    const data = JSON.parse(r.stdout);
    const md = readFileSync(join(dir, 'compacted.md'), 'utf8');
    const counter = await loadTokenCounter();
    expect(data).toMatchObject({ file: 'claude-long.jsonl', format: 'claude', encoding: 'o200k_base', out: 'compacted.md', tokensAfter: counter.count(md), marked: 5, missing: [], verbatimFrom: 29 });
    expect(data.saved).toBe(data.tokensBefore - data.tokensAfter);
    expect(data.savedPercent).toBe(Math.round((data.saved / data.tokensBefore) * 1000) / 10);
    expect(data.savedPercent).toBeGreaterThan(40);
    expect(data.markdown).toBeUndefined();
  });
  it('reads every format, and stdin', async () => {
    for (const f of ['codex-session.jsonl', 'openai-messages.json', 'session.md', 'claude-session.jsonl']) {
      const r = await run(['compact', f]);
      expect([f, r.code]).toEqual([f, 0]);
    }
    const r = await run(['--json', 'compact', '-'], readFileSync(join(dir, 'session.md'), 'utf8'));
    expect(JSON.parse(r.stdout)).toMatchObject({ file: 'stdin', format: 'text', marked: 2, missing: [] });
  });
  it('refuses a missing file, a directory, binary bytes and bad options (exit 2)', async () => {
    expect((await run(['compact', 'nope.jsonl'])).code).toBe(2);
    expect((await run(['compact', '.'])).code).toBe(2);
    writeFileSync(join(dir, 'bin.dat'), Buffer.from([1, 2, 0, 3]));
    expect((await run(['compact', 'bin.dat'])).code).toBe(2);
    expect((await run(['compact', 'session.md', '--keep-last', 'x'])).code).toBe(2);
    expect((await run(['compact', 'session.md', '--format', 'yaml'])).code).toBe(2);
  });
  it('compacts an empty file to its header', async () => {
    writeFileSync(join(dir, 'empty.txt'), '');
    const r = await run(['compact', 'empty.txt']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('# Transcript: empty.txt (compacted by memctx)\n');
  });
});
