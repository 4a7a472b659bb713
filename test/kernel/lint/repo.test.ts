import { describe, expect, it } from 'vitest';
import { repoHas, repoView } from '../../../src/kernel/lint/repo.js';

describe('repoView', () => {
  it('gathers every folder above a listed file and every base name', () => {
    const view = repoView(['src/a/b.ts', 'src/a/c.ts', 'README.md'], ['node_modules', 'dist/'], 'docs/.memory');
    expect([...view.dirs].sort()).toEqual(['src', 'src/a']);
    expect([...view.basenames].sort()).toEqual(['README.md', 'b.ts', 'c.ts']);
    expect(view.ignoredDirs).toEqual(['node_modules/', 'dist/']);
    expect(view.memoryPrefix).toBe('docs/.memory');
  });
});

describe('repoHas', () => {
  const view = repoView(['src/a/b.ts', 'README.md'], ['node_modules']);

  it('finds a listed file, a folder (with or without a trailing slash) and the top', () => {
    expect(['src/a/b.ts', 'README.md', 'src', 'src/a/', '', '/'].map((p) => repoHas(view, p))).toEqual([true, true, true, true, true, true]);
  });

  it('takes anything under an ignored folder to exist, and nothing else', () => {
    expect(['node_modules', 'node_modules/x/y.js', 'node_modulesx', 'src/a/missing.ts', 'src/b', 'readme.md'].map((p) => repoHas(view, p))).toEqual([true, true, false, false, false, false]);
  });
});
