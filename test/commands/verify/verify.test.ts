// `memctx verify FILE…`: `verified:` set to HEAD, `updated` and everything else kept, one bad file never stops the others.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeMemoryRepo } from '../../helpers/repo.js';
import { tempDir } from '../../helpers/cli.js';
import { runCli } from '../../helpers/run.js';

describe('memctx verify', () => {
  it('stamps HEAD on each good file, leaves updated alone, and names a missing one (exit 2)', async () => {
    const repo = await makeMemoryRepo();
    const file = join(repo.top, '.memory/user_prefs.md');
    const before = readFileSync(file, 'utf8');
    const result = await repo.memctx(['verify', 'user_prefs.md', 'nope.md']);
    const head = repo.gitOk(['rev-parse', 'HEAD']).trim();
    expect(result.code).toBe(2);
    expect(result.stdout).toBe(`verified user_prefs.md at ${head.slice(0, 12)}\n`);
    expect(result.stderr).toContain('nope.md: error: no memory file nope.md; not verified');
    expect(readFileSync(file, 'utf8')).toBe(before.replace('type: user\n', `type: user\nverified: ${head}\n`));
  });

  it('outside git: a clear error, nothing written', async () => {
    const cwd = tempDir('memctx-verify-');
    const env = { GIT_CEILING_DIRECTORIES: cwd };
    expect((await runCli(['init'], { cwd, env })).code).toBe(0);
    expect((await runCli(['add', 'a.md', '--name', 'A', '--description', 'a', '--type', 'project', '--body', 'x'], { cwd, env })).code).toBe(0);
    const before = readFileSync(join(cwd, '.memory/a.md'), 'utf8');
    const result = await runCli(['verify', 'a.md'], { cwd, env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('is not in a git repository with a commit, so there is no commit to record');
    expect(readFileSync(join(cwd, '.memory/a.md'), 'utf8')).toBe(before);
  });
});
