import { describe, expect, it } from 'vitest';
import { VALID, doc, lint, lines, mem } from '../../../../helpers/lint.js';

describe('content/conflict-marker', () => {
  it('names the first marker line of each half-merged file, MEMORY.md and unparseable files included', async () => {
    const merged = '<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> feature\n';
    const files = [mem('a.md', doc(VALID, merged)), mem('clean.md', doc(VALID, 'Plain text.\n======= not a marker line\n'))];
    const result = await lint(['content/conflict-marker'], {
      files,
      indexText: `# Memory\n${merged}`,
      problemTexts: { 'broken.md': `---\nname: [\n---\n${merged}` },
    });
    expect(lines(result)).toEqual([
      'MEMORY.md:2:1 content/conflict-marker git conflict markers on lines 2, 4, 6: a merge left this file half resolved; keep the right text and delete the marker lines',
      'a.md:7:1 content/conflict-marker git conflict markers on lines 7, 9, 11: a merge left this file half resolved; keep the right text and delete the marker lines',
      'broken.md:4:1 content/conflict-marker git conflict markers on lines 4, 6, 8: a merge left this file half resolved; keep the right text and delete the marker lines',
    ]);
  });
});
