import { describe, expect, it } from 'vitest';
import { searchMemory, WEIGHTS } from '../../../src/kernel/rank/search.js';
import { NOW, hoursAgo, memory } from '../../helpers/pack-files.js';

const DAY = 24;
const files = [
  memory('auth.md', { name: 'Auth tokens', description: 'JWT rotation', importance: 8, tags: ['security'], updated: hoursAgo(30 * DAY) }, 'Refresh tokens rotate on every use.\n'),
  memory('db.md', { name: 'Database', description: 'schema notes', kind: 'decision', importance: 4, updated: hoursAgo(0) }, 'The users table gains token_version.\n'),
  memory('ui.md', { name: 'Colours', description: 'palette', importance: 5, updated: hoursAgo(0) }, 'Blue and grey.\n'),
];
const none = () => 0;

describe('search ranking', () => {
  it('ranks by text relevance first; importance, recency and access add at most 0.3', () => {
    const access: Record<string, number> = { 'auth.md': 5, 'db.md': 20 };
    const hits = searchMemory(files, 'token', { now: NOW, accessCount: (p) => access[p] ?? 0 });
    expect(hits.map((h) => h.path).sort()).toEqual(['auth.md', 'db.md']);
    const auth = hits.find((h) => h.path === 'auth.md')!;
    const db = hits.find((h) => h.path === 'db.md')!;
    expect(Math.max(auth.factors.text, db.factors.text)).toBe(1);
    expect(auth.factors).toMatchObject({ importance: 0.8, recency: 0.5, access: 0.5 });
    expect(db.factors).toMatchObject({ importance: 0.4, recency: 1, access: 1 });
    for (const h of hits) {
      const f = h.factors;
      expect(h.score).toBeCloseTo(WEIGHTS.text * f.text + WEIGHTS.importance * f.importance + WEIGHTS.recency * f.recency + WEIGHTS.access * f.access, 12);
    }
    expect(WEIGHTS).toEqual({ text: 0.7, importance: 0.12, recency: 0.1, access: 0.08 });
    expect(WEIGHTS.importance + WEIGHTS.recency + WEIGHTS.access).toBeCloseTo(0.3, 12);
  });

  it('returns only files that match the text', () => {
    expect(searchMemory(files, 'palette', { now: NOW, accessCount: none }).map((h) => h.path)).toEqual(['ui.md']);
    expect(searchMemory(files, 'kubernetes', { now: NOW, accessCount: none })).toEqual([]);
  });

  it('filters by type, kind, tag, importance and date, and limits', () => {
    const search = (filters: object, limit?: number) => searchMemory(files, 'token table palette', { now: NOW, accessCount: none, filters, limit }).map((h) => h.path).sort();
    expect(search({})).toEqual(['auth.md', 'db.md', 'ui.md']);
    expect(search({ kind: 'decision' })).toEqual(['db.md']);
    expect(search({ tag: 'SECURITY' })).toEqual(['auth.md']);
    expect(search({ minImportance: 5 })).toEqual(['auth.md', 'ui.md']);
    expect(search({ since: new Date(NOW.getTime() - 86_400_000) })).toEqual(['db.md', 'ui.md']);
    expect(search({ type: 'other' })).toEqual(['auth.md', 'db.md', 'ui.md']);
    expect(search({ type: 'project' })).toEqual([]);
    expect(search({}, 1)).toHaveLength(1);
  });
});
