import { describe, expect, it } from 'vitest';
import { bestPick, retrieve } from '../../../src/kernel/rank/retrieve.js';

const file = (path: string, body: string, description = '') => ({ path, name: path.replace(/\.md$/, ''), description, tags: [] as string[], body });

describe('retrieve', () => {
  it('raises a long file by its best passage, never lowers a match in the description', () => {
    const turns = Array.from({ length: 40 }, (_, i) => `**assistant:** Turn ${i} is about gardening, tomatoes and the weather this week.`);
    turns[23] = '**user:** By the way, my sister Carla moved to Lisbon in March for her new job.';
    const files = [
      file('long.md', turns.join('\n\n')),
      file('short.md', 'Carla likes tea. Lisbon trams are yellow. Gardening again.'),
      file('named.md', 'Nothing here.', 'where Carla moved'),
    ];
    const r = retrieve(files, 'where did Carla move to Lisbon', { text: (i) => files[i].body });
    expect(r.terms).toEqual(['carla', 'move', 'lisbon']);
    expect(r.score[0]).toBeGreaterThan(r.own[0]);
    expect(r.score[2]).toBeGreaterThan(0);
    expect(r.passages[0]).toMatchObject({ file: 0, start: 47, end: 47, text: turns[23], score: 1 });
    expect(r.passages[0].terms).toEqual([0, 1, 2]);
    // Its place among the file's passages, and every passage of the file, for its neighbours.
    expect(r.passages[0].index).toBe(23);
    expect(r.pieces.get(0)!.map((p) => p.text)).toEqual(turns);
    expect(r.pieces.get(0)![22]).toMatchObject({ start: 45, end: 45 });
  });

  it('ranks a file by its best passages together: three turns on the question outrank one, though the one file is named for it', () => {
    const filler = () => Array.from({ length: 12 }, (_, i) => `**Ann:** Turn ${i} is about gardening, tomatoes and the weather this week.`);
    const one = filler();
    one[1] = '**Ann:** I went hiking in the Alps with my brother last summer.';
    const three = filler();
    three[3] = '**Ann:** Hiking in the Alps with my brother, in the cold.';
    three[8] = '**Ann:** My brother wants to go hiking in the Alps again.';
    three[10] = '**Ann:** The Alps with my brother: hiking all day.';
    const files = [file('brother-alps-hiking.md', one.join('\n\n'), 'Hiking in the Alps with my brother'), file('three.md', three.join('\n\n'))];
    const r = retrieve(files, 'hiking in the Alps with my brother', { text: (i) => files[i].body });
    // The named file matches best on its own and holds the best passage ...
    expect(r.own[0]).toBe(1);
    expect(r.passages[0]).toMatchObject({ file: 0, score: 1 });
    // ... but the other file's three passages (0.74 + 0.73 / 2 + 0.73 / 4) weigh more than one.
    expect(r.passages.filter((p) => p.file === 1)).toHaveLength(3);
    expect(r.score[1]).toBe(1);
    expect(r.score[0]).toBeCloseTo(0.9466, 3);
    // A note (list items, no speakers) goes by its best passage: the named file stays first.
    const items = (lines: string[]) => lines.map((l) => l.replace(/^\*\*Ann:\*\* /, '- ')).join('\n');
    const notes = [file('brother-alps-hiking.md', items(one), 'Hiking in the Alps with my brother'), file('three.md', items(three))];
    const n = retrieve(notes, 'hiking in the Alps with my brother', { text: (i) => notes[i].body });
    expect(n.passages.filter((p) => p.file === 1)).toHaveLength(3);
    expect(n.score[0]).toBe(1);
    expect(n.score[1]).toBeLessThan(1);
  });

  it('returns nothing to match for a query of stopwords', () => {
    const files = [file('a.md', 'what is the')];
    const r = retrieve(files, 'what is the', { text: () => 'what is the' });
    expect(r.terms).toEqual([]);
    expect(r.passages).toEqual([]);
    expect(r.pieces.size).toBe(0);
  });
});

describe('bestPick', () => {
  it('prefers an item holding the query words the picks so far lack over a near-copy', () => {
    const weights = new Float64Array([1, 1, 1]);
    const items = [
      { id: 'a-copy', value: 0.95, terms: [0, 1] },
      { id: 'b', value: 0.9, terms: [2] },
    ];
    const covered = new Uint8Array([1, 1, 0]);
    expect(items[bestPick(items, (x) => x.value, (x) => x.terms, covered, weights, 3)].id).toBe('b');
    // Without new words to cover, value alone decides.
    expect(items[bestPick(items, (x) => x.value, (x) => x.terms, new Uint8Array([1, 1, 1]), weights, 3)].id).toBe('a-copy');
  });
});
