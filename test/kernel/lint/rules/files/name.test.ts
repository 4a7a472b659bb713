import { describe, expect, it } from 'vitest';
import { VALID, doc, lint, lines, mem } from '../../../../helpers/lint.js';

describe('files/name', () => {
  it('warns on names no command can address and on notes that are never indexed', async () => {
    const files = [mem('ok.md', doc(VALID)), mem('back\\slash.md', doc(VALID)), mem('dot%2eenc.md', doc(VALID))];
    const memoryPaths = ['ok.md', 'notes.txt', 'draft.markdown', '.hidden/secret.md', '.draft.md', 'MEMORY.md', 'templates/t.txt', 'archive/old.txt', 'image.png'];
    const result = await lint(['files/name'], { files, memoryPaths });
    expect(lines(result)).toEqual([
      '.draft.md:1:1 files/name never indexed: files in dot-folders and dot-files are skipped; move or rename it if it is a memory',
      '.hidden/secret.md:1:1 files/name never indexed: files in dot-folders and dot-files are skipped; move or rename it if it is a memory',
      'back\\slash.md:1:1 files/name its name holds a backslash, so memctx show/edit/rm/mv cannot name it; rename it',
      'dot%2eenc.md:1:1 files/name its name holds a URL-encoded path character (%2e, %2f, %5c or %00), so memctx show/edit/rm/mv cannot name it; rename it',
      'draft.markdown:1:1 files/name never indexed: only .md files are memory files; rename it to draft.md if it is a memory',
      'notes.txt:1:1 files/name never indexed: only .md files are memory files; rename it to notes.md if it is a memory',
    ]);
    expect(result.warningCount).toBe(6);
  });
});
