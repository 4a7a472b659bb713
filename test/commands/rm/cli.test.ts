// rm/cli.ts: what `memctx rm` prints (rm.test.ts holds what it deletes and refuses).
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runMemctx } from '../../helpers/run.js';
import { tempDir } from '../../helpers/cli.js';

describe("what rm prints", () => {
  let cwd: string;
  beforeEach(async () => {
    cwd = tempDir();
    await runMemctx(['init'], { cwd });
    await runMemctx(['add', 'a', '--name', 'a', '--description', 'A note', '--type', 'project', '--body', 'x'], { cwd });
  });
  afterEach(() => rmSync(cwd, { recursive: true, force: true }));

  it('--json with --dry-run prints one JSON document (rm -n)', async () => {
    const rm = await runMemctx(['--json', 'rm', '-n', 'a'], { cwd });
    expect(rm.code).toBe(0);
    expect(JSON.parse(rm.stdout)).toEqual({ deleted: 'a.md', dryRun: true });
    expect(existsSync(join(cwd, '.memory/a.md'))).toBe(true);
  });

  it('rm --quiet deletes and prints nothing', async () => {
    expect(await runMemctx(['--quiet', 'rm', 'a'], { cwd })).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(existsSync(join(cwd, '.memory/a.md'))).toBe(false);
  });
});
