// mv/cli.ts: what `memctx mv` prints (mv.test.ts holds what it renames and refuses).
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runMemctx } from '../../helpers/run.js';
import { tempDir } from '../../helpers/cli.js';

describe("what mv prints", () => {
  let cwd: string;
  beforeEach(async () => {
    cwd = tempDir();
    await runMemctx(['init'], { cwd });
    await runMemctx(['add', 'a', '--name', 'a', '--description', 'A note', '--type', 'project', '--body', 'x'], { cwd });
  });
  afterEach(() => rmSync(cwd, { recursive: true, force: true }));

  it('--json with --dry-run prints one JSON document (mv -n)', async () => {
    const mv = await runMemctx(['--json', 'mv', '-n', 'a', 'b'], { cwd });
    expect(JSON.parse(mv.stdout)).toEqual({ from: 'a.md', to: 'b.md', dryRun: true });
    expect(existsSync(join(cwd, '.memory/a.md'))).toBe(true);
    expect(existsSync(join(cwd, '.memory/b.md'))).toBe(false);
  });

  it('mv --quiet renames and prints nothing', async () => {
    expect(await runMemctx(['--quiet', 'mv', 'a', 'c'], { cwd })).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(existsSync(join(cwd, '.memory/c.md'))).toBe(true);
  });
});
