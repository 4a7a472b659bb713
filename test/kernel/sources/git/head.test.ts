import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sessionGitChanges } from '../../../../src/kernel/sources/git.js';
import { tempDir } from '../../../helpers/cli.js';

/** A repository, and an env whose `git` records its subcommand in calls.txt before running the real git. */
function repo() {
  const dir = tempDir('memctx-git-head-');
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  const bin = join(dir, '.bin');
  mkdirSync(bin);
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  writeFileSync(join(bin, 'git'), `#!/bin/sh\necho "$1" >> "${join(dir, '.bin', 'calls.txt')}"\nexec "${real}" "$@"\n`);
  chmodSync(join(bin, 'git'), 0o755);
  writeFileSync(join(dir, '.git', 'info', 'exclude'), '.bin/\n');
  const calls = () => {
    try {
      return readFileSync(join(bin, 'calls.txt'), 'utf8').trim().split('\n');
    } finally {
      rmSync(join(bin, 'calls.txt'), { force: true });
    }
  };
  return { dir, git, calls, env: { PATH: `${bin}:${process.env.PATH}` } };
}

const old = new Date('2001-01-01T00:00:00Z');

describe('sessionGitChanges: git log only when HEAD may have moved since the start', () => {
  it('a branch with no commit yet: no git log, and no problem reported', () => {
    const { dir, calls, env } = repo();
    const found = sessionGitChanges(dir, '2001-01-01T00:00:00Z', env, 5_000);
    expect(found?.problems).toEqual([]);
    expect(calls()).toEqual(['status']);
  });

  it('a commit after the start runs git log; a branch and HEAD unchanged since the start do not', () => {
    const { dir, git, calls, env } = repo();
    writeFileSync(join(dir, 'a.ts'), 'a\n');
    git('add', 'a.ts');
    git('commit', '-qm', 'during');
    expect(sessionGitChanges(dir, '2001-01-01T00:00:00Z', env, 5_000)?.changes).toEqual([{ path: 'a.ts', status: 'added' }]);
    expect(calls()).toEqual(['log', 'status']);
    // The same repository seen from a session that started after the commit (and after HEAD last changed).
    const later = new Date(Date.now() + 60_000).toISOString();
    expect(sessionGitChanges(dir, later, env, 5_000)?.changes).toEqual([]);
    expect(calls()).toEqual(['status']);
    // Packed refs (no loose ref file): packed before the start, no git log; packed since, git log.
    git('pack-refs', '--all');
    utimesSync(join(dir, '.git', 'packed-refs'), old, old);
    utimesSync(join(dir, '.git', 'HEAD'), old, old);
    sessionGitChanges(dir, '2002-01-01T00:00:00Z', env, 5_000);
    expect(calls()).toEqual(['status']);
    sessionGitChanges(dir, '2000-01-01T00:00:00Z', env, 5_000);
    expect(calls()).toEqual(['log', 'status']);
  });

  it('where git keeps its files elsewhere (a linked work tree, GIT_DIR), git log always runs', () => {
    const { dir, git, calls, env } = repo();
    writeFileSync(join(dir, 'a.ts'), 'a\n');
    git('add', 'a.ts');
    git('commit', '-qm', 'before');
    const later = new Date(Date.now() + 60_000).toISOString();
    // GIT_DIR points git at the same repository: memctx does not read refs it would have to locate.
    sessionGitChanges(dir, later, { ...env, GIT_DIR: join(dir, '.git') }, 5_000);
    expect(calls()).toEqual(['log', 'status']);
    // A linked work tree's .git is a file.
    const linked = join(dir, '.bin', 'linked');
    git('worktree', 'add', '-q', linked);
    sessionGitChanges(linked, later, env, 5_000);
    expect(calls()).toEqual(['log', 'status']);
  });
});
