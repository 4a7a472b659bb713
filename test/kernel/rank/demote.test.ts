import { describe, expect, it } from 'vitest';
import { demotions } from '../../../src/kernel/rank/demote.js';
import { fieldBags } from '../../../src/kernel/text/relevance.js';
import { wordsKey } from '../../../src/kernel/text/bm25.js';
import { NOW, hoursAgo, memory } from '../../helpers/pack-files.js';

/** A file as the pack cache gives it: its body's length, and its wordsKey and bags counted when asked (recorded). */
function cached(path: string, body: string, updated: string, asked: string[]) {
  const file = memory(path, { name: path, description: 'd', updated }, body);
  return Object.defineProperties(file as typeof file & { bodyLength: number; words: ReturnType<typeof wordsKey>; bags: ReturnType<typeof fieldBags> }, {
    bodyLength: { value: file.body.length },
    words: {
      get() {
        asked.push(`words ${path}`);
        return wordsKey(file.body);
      },
    },
    bags: {
      get() {
        asked.push(`bags ${path}`);
        return fieldBags(file);
      },
    },
  });
}

describe('duplicates', () => {
  it('asks for the words of bodies whose length another body has, and only those', () => {
    const asked: string[] = [];
    const text = 'The deploy runs on Fridays after the freeze is lifted by the release team.\n';
    const files = [
      cached('old.md', text, '2020-01-01', asked),
      cached('new.md', text, hoursAgo(1), asked),
      cached('other.md', `${text}More words here, so another length.\n`, hoursAgo(1), asked),
      cached('same-length.md', text.replace('Fridays', 'Mondays'), hoursAgo(2), asked),
    ];
    const out = demotions(files, NOW);
    expect(out.get('old.md')).toBe('duplicate of new.md');
    expect([...out.keys()]).toEqual(['old.md']);
    expect([...new Set(asked.filter((a) => a.startsWith('words')))].sort()).toEqual(['words new.md', 'words old.md', 'words same-length.md']);
  });

  it('compares whole words keys among bodies whose keys end alike, and bags only the bodies whose keys are equal', () => {
    const asked: string[] = [];
    const text = 'The deploy runs on Fridays after the freeze is lifted by the release team.\n';
    const keyed = (path: string, body: string, updated: string, words: [number, number, number]) => {
      const file = memory(path, { name: path, description: 'd', updated }, body);
      return Object.defineProperties(file as typeof file & { bodyLength: number; words: [number, number, number]; bags: ReturnType<typeof fieldBags> }, {
        bodyLength: { value: file.body.length },
        words: { value: words },
        bags: {
          get() {
            asked.push(`bags ${path}`);
            return fieldBags(file);
          },
        },
      });
    };
    const files = [
      keyed('a.md', text, '2021-01-01', [text.length, 10, 7]),
      keyed('b.md', text.replace('Fridays', 'Mondays'), '2022-01-01', [text.length, 11, 7]),
      keyed('c.md', text, '2023-01-01', [text.length, 10, 7]),
      keyed('d.md', text.replace('Fridays', 'Sundays'), '2024-01-01', [text.length, 10, 8]),
    ];
    const out = demotions(files, NOW);
    expect([...out]).toEqual([['a.md', 'duplicate of c.md']]);
    expect([...new Set(asked)].sort()).toEqual(['bags a.md', 'bags c.md']);
  });
});
