import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
import { gitTopLevel, gitTopLevelWith, joinRepoPath, memoryDirOutside, pathInRepo, realPathOf } from '../../../src/kernel/hooks/git.js';

describe('realPathOf and pathInRepo', () => {
  it('resolve the part of a path that exists, links included', () => {
    const base = tempDir();
    mkdirSync(join(base, 'repo', 'sub'), { recursive: true });
    symlinkSync(join(base, 'repo'), join(base, 'link'));
    const real = realPathOf(join(base, 'repo'));
    expect(realPathOf(join(base, 'link', 'sub', 'not', 'yet'))).toBe(join(real, 'sub', 'not', 'yet'));
    expect(pathInRepo(join(base, 'link'), join(base, 'repo', 'sub', '.memory'))).toBe('sub/.memory');
    expect(pathInRepo(join(base, 'repo'), join(base, 'link'))).toBe('');
    expect(pathInRepo(join(base, 'repo', 'sub'), join(base, 'repo'))).toBeUndefined();
  });
});

describe('joinRepoPath and memoryDirOutside', () => {
  it('join a name to a folder of the repository, the top itself being ""', () => {
    expect(joinRepoPath('', 'MEMORY.md')).toBe('MEMORY.md');
    expect(joinRepoPath('docs/.memory', 'MEMORY.md')).toBe('docs/.memory/MEMORY.md');
  });

  it('name the memory directory and the repository, as a usage error', () => {
    const err = memoryDirOutside('/elsewhere/.memory', '/repo');
    expect(err.message).toBe('memory directory /elsewhere/.memory is outside the git repository /repo');
    expect(err.exitCode).toBe(2);
    expect(err.hint).toMatch(/^the hook can only index a memory directory inside this repository/);
  });
});

describe('gitTopLevel', () => {
  it('outside a working tree is a usage error naming the folder and what git said', () => {
    const dir = realPathOf(tempDir());
    let err: (Error & { exitCode?: number; hint?: string }) | undefined;
    try {
      gitTopLevel(dir, { PATH: process.env.PATH, GIT_CEILING_DIRECTORIES: dir, LC_ALL: 'C' });
    } catch (e) {
      err = e as Error & { exitCode?: number };
    }
    expect(err?.message).toMatch(new RegExp(`^not in a git working tree: ${dir} \\(not a git repository`));
    expect(err?.exitCode).toBe(2);
    expect(err?.hint).toBe('run this inside a git repository (`git init` creates one)');
  });
});

describe('gitTopLevelWith', () => {
  it('outside a working tree is the same usage error as gitTopLevel', () => {
    const dir = realPathOf(tempDir());
    const env = { PATH: process.env.PATH, GIT_CEILING_DIRECTORIES: dir, LC_ALL: 'C' };
    const messageOf = (ask: () => unknown) => {
      try {
        ask();
      } catch (e) {
        return [(e as Error).message, (e as { exitCode?: number }).exitCode];
      }
      return undefined;
    };
    const said = messageOf(() => gitTopLevelWith(dir, env, [['--git-path', 'hooks']]));
    expect(said).toEqual(messageOf(() => gitTopLevel(dir, env)));
    expect(said?.[1]).toBe(2);
  });
});
