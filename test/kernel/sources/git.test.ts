import { spawnSync } from 'node:child_process';
import { mkdirSync, realpathSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitTopLevel, gitTopLevelWith, outsideAnyRepository, sessionGitChanges } from '../../../src/kernel/sources/git.js';
import { tempDir } from '../../helpers/cli.js';

describe('sessionGitChanges', () => {
  it('keeps only the work-tree changes made since the session started, and none without a start', () => {
    const dir = tempDir('memctx-session-git-');
    spawnSync('git', ['init', '-q', '-b', 'main', dir]);
    writeFileSync(join(dir, 'before.md'), 'left by init\n');
    writeFileSync(join(dir, 'during.js'), 'export const a = 1;\n');
    const start = new Date('2026-11-20T10:00:00Z');
    utimesSync(join(dir, 'before.md'), new Date('2026-11-20T09:59:59Z'), new Date('2026-11-20T09:59:59Z'));
    utimesSync(join(dir, 'during.js'), new Date('2026-11-20T10:05:00Z'), new Date('2026-11-20T10:05:00Z'));
    const env = { PATH: process.env.PATH };
    const since = sessionGitChanges(dir, start.toISOString(), env, 5_000);
    expect(since?.changes.map((c) => c.path)).toEqual(['during.js']);
    // A start to the second: a file written within that second (before the first line) is not the session's.
    utimesSync(join(dir, 'before.md'), new Date('2026-11-20T10:00:00.400Z'), new Date('2026-11-20T10:00:00.400Z'));
    expect(sessionGitChanges(dir, '2026-11-20T10:00:00Z', env, 5_000)?.changes.map((c) => c.path)).toEqual(['during.js']);
    const unknown = sessionGitChanges(dir, undefined, env, 5_000);
    expect(unknown?.changes).toEqual([]);
  });
});

describe('outsideAnyRepository', () => {
  const env = { PATH: process.env.PATH, LC_ALL: 'C' };
  /** git's own answer: does `rev-parse --show-toplevel` find a work tree from dir? */
  const gitFinds = (dir: string, extra: Record<string, string> = {}) => {
    try {
      gitTopLevel(dir, { ...env, ...extra });
      return true;
    } catch {
      return false;
    }
  };

  it('is true only where git finds no repository: a plain folder, not one in a work tree, a bare repository, a dangling .git link or GIT_DIR', () => {
    const base = tempDir('memctx-outside-');
    const plain = join(base, 'plain', 'deep');
    mkdirSync(plain, { recursive: true });
    expect(outsideAnyRepository(plain, env)).toBe(true);
    expect(gitFinds(plain)).toBe(false);
    // A path that does not exist yet, below the plain folder: still outside.
    expect(outsideAnyRepository(join(plain, 'missing'), env)).toBe(true);

    const work = join(base, 'work');
    spawnSync('git', ['init', '-q', work]);
    mkdirSync(join(work, 'a', 'b'), { recursive: true });
    expect(outsideAnyRepository(join(work, 'a', 'b'), env)).toBe(false);
    expect(gitFinds(join(work, 'a', 'b'))).toBe(true);

    // Inside a bare repository (a git directory without a .git entry): left to git.
    const bare = join(base, 'bare.git');
    spawnSync('git', ['init', '-q', '--bare', bare]);
    expect(outsideAnyRepository(join(bare, 'refs'), env)).toBe(false);

    // A .git link to nowhere: left to git, which says what it makes of it.
    const linked = join(base, 'linked');
    mkdirSync(linked);
    symlinkSync(join(base, 'nowhere'), join(linked, '.git'));
    expect(outsideAnyRepository(linked, env)).toBe(false);

    // GIT_DIR (or GIT_WORK_TREE) names a repository from anywhere: left to git.
    expect(outsideAnyRepository(plain, { ...env, GIT_DIR: join(work, '.git') })).toBe(false);
    expect(gitFinds(plain, { GIT_DIR: join(work, '.git') })).toBe(true);
    expect(outsideAnyRepository(plain, { ...env, GIT_WORK_TREE: plain })).toBe(false);
  });
});

describe('gitTopLevelWith', () => {
  const env = { PATH: process.env.PATH, LC_ALL: 'C' };
  const hooksAsked = [['--git-path', 'hooks'], ['--git-common-dir']];
  /** git's answers to `rev-parse ARGS` asked alone from dir. */
  const alone = (dir: string, asks: string[][]) => spawnSync('git', ['rev-parse', ...asks.flat()], { cwd: dir, encoding: 'utf8' }).stdout.split('\n').slice(0, -1);

  it("from the top: the top and, from the same call, git's answers as asked alone there", () => {
    const top = realpathSync(tempDir('memctx-top-with-'));
    spawnSync('git', ['init', '-q', top]);
    spawnSync('git', ['config', 'core.hooksPath', 'my hooks'], { cwd: top });
    expect(gitTopLevelWith(top, env, hooksAsked)).toEqual({ top, answers: alone(top, hooksAsked) });
    expect(alone(top, hooksAsked)).toEqual(['my hooks', '.git']);
  });

  it('from below the top: the top only (git would answer relative to the folder asked from)', () => {
    const top = realpathSync(tempDir('memctx-top-with-'));
    spawnSync('git', ['init', '-q', top]);
    mkdirSync(join(top, 'src'));
    expect(gitTopLevelWith(join(top, 'src'), env, hooksAsked)).toEqual({ top });
    expect(gitTopLevel(join(top, 'src'), env)).toBe(top);
  });

  it('a top with a line break in its name: the top as gitTopLevel finds it, no answers', () => {
    const top = join(realpathSync(tempDir('memctx-top-with-')), 'a\nb');
    mkdirSync(top);
    spawnSync('git', ['init', '-q', top]);
    expect(gitTopLevelWith(top, env, hooksAsked)).toEqual({ top });
  });
});
