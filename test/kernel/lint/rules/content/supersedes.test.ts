import { describe, expect, it } from 'vitest';
import { VALID, doc, lint, lines, mem } from '../../../../helpers/lint.js';

describe('content/supersedes', () => {
  it('names a supersedes: entry that is no memory file, and a ring of files superseding each other', async () => {
    const files = [
      mem('new.md', doc({ ...VALID, supersedes: 'old.md' })),
      mem('old.md', doc(VALID)),
      mem('gone.md', doc({ ...VALID, supersedes: 'missing.md' })),
      mem('a.md', doc({ ...VALID, supersedes: 'b.md' })),
      mem('b.md', doc({ ...VALID, supersedes: 'a.md' })),
    ];
    expect(lines(await lint(['content/supersedes'], { files }))).toEqual([
      'a.md:6:1 content/supersedes a.md and b.md supersede each other; the newer one stands (at the same age neither is superseded) — remove supersedes: from the file that is current',
      'gone.md:6:1 content/supersedes supersedes: missing.md names no memory file; give its path relative to the memory directory (see `memctx ls`), or remove the entry',
    ]);
  });
});
