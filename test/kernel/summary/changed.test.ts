import { describe, expect, it } from 'vitest';
import { gitEntries, uniqueEntries } from '../../../src/kernel/summary/changed.js';

const changes = ['.memory/a.md', '.memory/', '.memoryx/b.md', 'src/c.ts', '.memory', 'notes/.memory/d.md'].map((path) => ({ path, status: 'modified' as const }));
const shownFor = (gitRoot: string, root: string) => gitEntries(changes, gitRoot, { base: gitRoot, cwd: gitRoot, root }).map((e) => e.display);

describe("gitEntries leaves out the memory directory's own files", () => {
  it('a memory directory below the top level: only paths under it, not a sibling sharing its name as a prefix', () => {
    expect(shownFor('/p', '/p/.memory')).toEqual(['.memoryx/b.md', 'src/c.ts', 'notes/.memory/d.md']);
    expect(shownFor('/p', '/p/.memory/')).toEqual(['.memoryx/b.md', 'src/c.ts', 'notes/.memory/d.md']);
  });

  it('the memory directory at the top level: nothing; above it: nothing; beside it: everything', () => {
    expect(shownFor('/p', '/p')).toEqual([]);
    expect(shownFor('/p/sub', '/p')).toEqual([]);
    expect(shownFor('/p', '/q/.memory')).toEqual(changes.map((c) => c.path));
  });
});

describe('uniqueEntries', () => {
  it('lists files outside the project apart, after the project files, each once', () => {
    const entries = uniqueEntries([
      { display: '/home/me/.npmrc', abs: '/home/me/.npmrc', note: '(outside the working directory)' },
      { display: 'src/a.ts', abs: '/w/src/a.ts' },
      { display: 'src/a.ts', abs: '/w/src/a.ts', note: '(new)' },
      { display: 'README.md', abs: '/w/README.md' },
    ]);
    expect(entries.map((e) => `${e.display}${e.note ? ` ${e.note}` : ''}`)).toEqual(['src/a.ts (new)', 'README.md', '/home/me/.npmrc (outside the working directory)']);
  });
});
