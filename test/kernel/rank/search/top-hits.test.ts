import { describe, expect, it } from 'vitest';
import { searchMemory } from '../../../../src/kernel/rank/search.js';
import { NOW, hoursAgo, memory } from '../../../helpers/pack-files.js';

// Many files with equal and unequal scores, one superseded: the hits a limit returns are the head of the full ranking.
const files = Array.from({ length: 40 }, (_, i) =>
  memory(`n${String(39 - i).padStart(2, '0')}.md`, { name: `Note ${i}`, description: i % 3 ? 'token cache' : 'token', importance: (i % 4) + 3, updated: hoursAgo((i % 5) * 24), ...(i === 7 ? { supersedes: ['n31.md'] } : {}) }, i % 2 ? 'token rotation\n' : 'cache\n'),
);
const access = (p: string) => (p.endsWith('3.md') ? 4 : 0);

describe('search hits under a limit', () => {
  it('are the first hits of the full ranking, with the same scores and factors', () => {
    const all = searchMemory(files, 'token cache', { now: NOW, accessCount: access });
    expect(all).toHaveLength(40);
    for (let i = 1; i < all.length; i++) {
      const [a, b] = [all[i - 1], all[i]];
      expect(a.score).toBeGreaterThanOrEqual(b.score);
    }
    expect(all.some((h, i) => i > 0 && h.score === all[i - 1].score)).toBe(true); // ties broken by pack's score
    expect(all.find((h) => h.path === 'n31.md')!.superseded).not.toBeNull();
    for (const limit of [1, 5, 17, 40, 100]) expect(searchMemory(files, 'token cache', { now: NOW, accessCount: access, limit })).toEqual(all.slice(0, limit));
  });
});
