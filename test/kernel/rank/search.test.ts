import { describe, expect, it } from 'vitest';
import { searchMemory } from '../../../src/kernel/rank/search.js';
import { NOW, hoursAgo, memory } from '../../helpers/pack-files.js';

const DAY = 24;
const files = [
  memory('auth.md', { name: 'Auth tokens', description: 'JWT rotation', importance: 8, tags: ['security'], updated: hoursAgo(30 * DAY) }, 'Refresh tokens rotate on every use.\n'),
  memory('db.md', { name: 'Database', description: 'schema notes', kind: 'decision', importance: 4, updated: hoursAgo(0) }, 'The users table gains token_version.\n'),
  memory('ui.md', { name: 'Colours', description: 'palette', importance: 5, updated: hoursAgo(0) }, 'Blue and grey.\n'),
];
const none = () => 0;

describe('search ranking', () => {
  it('ranks by text relevance as pack --task does; importance and recency break ties; reads are shown, not ranked', () => {
    const access: Record<string, number> = { 'auth.md': 5, 'db.md': 20 };
    const hits = searchMemory(files, 'token', { now: NOW, accessCount: (p) => access[p] ?? 0 });
    expect(hits.map((h) => h.path).sort()).toEqual(['auth.md', 'db.md']);
    const auth = hits.find((h) => h.path === 'auth.md')!;
    const db = hits.find((h) => h.path === 'db.md')!;
    expect(Math.max(auth.factors.text, db.factors.text)).toBe(1);
    expect(auth.factors).toMatchObject({ importance: 0.8, recency: 0, access: 0.5 });
    expect(db.factors).toMatchObject({ importance: 0.4, recency: 1, access: 1 });
    for (const h of hits) expect(h.score).toBe(h.factors.text);
    const order = [...hits].sort((a, b) => b.score - a.score).map((h) => h.path);
    expect(hits.map((h) => h.path)).toEqual(order);
  });

  it('orders equal text matches by pack score (design §5: recency points, core files), never by reads', () => {
    const twins = [
      memory('old.md', { name: 'Old', description: 'cache', importance: 5, updated: hoursAgo(30 * DAY) }, 'cache\n'),
      memory('new.md', { name: 'New', description: 'cache', importance: 5, updated: hoursAgo(2) }, 'cache\n'),
      memory('core.md', { name: 'Core', description: 'cache', importance: 9, updated: hoursAgo(30 * DAY) }, 'cache\n'),
    ];
    const hits = searchMemory(twins, 'cache', { now: NOW, accessCount: (p) => (p === 'old.md' ? 100 : 0) });
    expect(hits.map((h) => [h.path, h.factors.recency])).toEqual([['new.md', 20 / 30], ['core.md', 0], ['old.md', 0]]);
  });

  it('puts files dated in the time a query names first among those its words reach, and raises no file its words miss', () => {
    const sessions = [
      memory('a.md', { name: 'Session 1', description: 'chat', updated: '2023-05-20T10:00:00Z' }, '**Ann:** The garden show was lovely, roses won.\n'),
      memory('b.md', { name: 'Session 2', description: 'chat', updated: '2023-06-03T10:00:00Z' }, '**Ann:** The garden show was crowded, tulips won.\n'),
      memory('c.md', { name: 'Session 3', description: 'chat', updated: '2023-06-03T18:00:00Z' }, '**Ann:** Tea and cake.\n'),
    ];
    const ask = (query: string) => searchMemory(sessions, query, { now: NOW, accessCount: none }).map((h) => h.path);
    expect(ask('Which garden show was it?')).toEqual(['a.md', 'b.md']);
    expect(ask('Which garden show was it on 3 June, 2023?')).toEqual(['b.md', 'a.md']);
    expect(ask('Which garden show was it in June?')).toEqual(['b.md', 'a.md']);
    expect(ask('Which garden show was it in May 2023?')).toEqual(['a.md', 'b.md']);
  });

  it('counts a file dated in the few days after the time a query names as dated then (what happened is told after)', () => {
    const sessions = [
      memory('a.md', { name: 'Session 1', description: 'chat', updated: '2023-05-20T10:00:00Z' }, '**Ann:** The garden show was lovely, roses won.\n'),
      memory('b.md', { name: 'Session 2', description: 'chat', updated: '2023-06-05T10:00:00Z' }, '**Ann:** The garden show was crowded, tulips won.\n'),
    ];
    const ask = (query: string) => searchMemory(sessions, query, { now: NOW, accessCount: none }).map((h) => h.path);
    expect(ask('Which garden show was it?')).toEqual(['a.md', 'b.md']);
    expect(ask('Which garden show was it on 3 June, 2023?')).toEqual(['b.md', 'a.md']);
    expect(ask('Which garden show was it on 1 June, 2023?')).toEqual(['b.md', 'a.md']);
    expect(ask('Which garden show was it on 31 May, 2023?')).toEqual(['a.md', 'b.md']);
    expect(ask('Which garden show was it in May 2023?')).toEqual(['a.md', 'b.md']);
    expect(ask('Which garden show was it in April 2023?')).toEqual(['a.md', 'b.md']);
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
