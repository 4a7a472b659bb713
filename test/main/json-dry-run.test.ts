import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runMemctx } from '../helpers/run.js';
import { tempDir } from '../helpers/cli.js';

describe('--json with --dry-run prints one JSON document', () => {
  let cwd: string;
  beforeEach(async () => {
    cwd = tempDir();
    await runMemctx(['init'], { cwd });
    await runMemctx(['add', 'a', '--name', 'a', '--description', 'A note', '--type', 'project', '--body', 'x'], { cwd });
  });
  afterEach(() => rmSync(cwd, { recursive: true, force: true }));

  it('rm -n and mv -n', async () => {
    const rm = await runMemctx(['--json', 'rm', '-n', 'a'], { cwd });
    expect(rm.code).toBe(0);
    expect(JSON.parse(rm.stdout)).toEqual({ deleted: 'a.md', dryRun: true });
    const mv = await runMemctx(['--json', 'mv', '-n', 'a', 'b'], { cwd });
    expect(JSON.parse(mv.stdout)).toEqual({ from: 'a.md', to: 'b.md', dryRun: true });
    expect(existsSync(join(cwd, '.memory/a.md'))).toBe(true);
    expect(existsSync(join(cwd, '.memory/b.md'))).toBe(false);
  });
});
