import { describe, expect, it } from 'vitest';
import { gitEntries } from '../../src/flush/index.js';

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
