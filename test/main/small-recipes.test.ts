import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { runCli } from '../helpers/run.js';
import { VERSION } from '../../src/kernel/version.js';

const git = (cwd: string, ...args: string[]) => spawnSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=a', ...args], { cwd, encoding: 'utf8' });

describe('issue 24, item 11', () => {
  it('-v is --version', async () => {
    const dir = tempDir();
    expect(await runCli(['-v'], { cwd: dir })).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    expect((await runCli(['--dir', '.', '-v'], { cwd: dir })).stdout).toBe(`${VERSION}\n`);
  });

  it('flush --git without --since: the merge base with the default branch (master here), said in a note', async () => {
    const dir = tempDir();
    git(dir, 'init', '-q', '-b', 'master');
    git(dir, 'commit', '-q', '--allow-empty', '-m', 'init');
    await runCli(['init'], { cwd: dir });
    git(dir, 'checkout', '-q', '-b', 'feature');
    writeFileSync(join(dir, 'committed.txt'), 'x\n');
    git(dir, 'add', 'committed.txt');
    git(dir, 'commit', '-q', '-m', 'feature work');
    writeFileSync(join(dir, 'uncommitted.txt'), 'y\n');
    const base = git(dir, 'merge-base', 'HEAD', 'master').stdout.trim().slice(0, 7);
    const out = await runCli(['flush', '--git', '--goal', 'Try the base', '--dry-run'], { cwd: dir });
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(`memctx: --git: files changed since the merge base with master (${base}) and in the work tree; --since REV for another base\n`);
    expect(out.stdout).toContain('- committed.txt (new)');
    expect(out.stdout).toContain('- uncommitted.txt (new)');
    // No default branch yet (no commit): the work tree only, no error.
    const fresh = tempDir();
    git(fresh, 'init', '-q', '-b', 'trunk');
    await runCli(['init'], { cwd: fresh });
    writeFileSync(join(fresh, 'a.txt'), 'a\n');
    const first = await runCli(['flush', '--git', '--goal', 'First', '--dry-run'], { cwd: fresh });
    expect(first.code).toBe(0);
    expect(first.stderr).not.toContain('merge base');
    expect(first.stdout).toContain('- a.txt (new)');
  });
});
