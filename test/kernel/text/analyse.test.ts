import { describe, expect, it } from 'vitest';
import { queryTerms, terms, MAX_QUERY_TERMS } from '../../../src/kernel/text/analyse.js';
import { relevance } from '../../../src/kernel/text/relevance.js';
import { supersession } from '../../../src/kernel/lifecycle/supersede.js';
import { fileTime } from '../../../src/kernel/lifecycle/age.js';

const doc = (path: string, body: string, extra: Partial<{ name: string; description: string; tags: string[] }> = {}) => ({ path, name: extra.name ?? path, description: extra.description ?? '', tags: extra.tags ?? [], body });

describe('analyser', () => {
  it('lower-cases, drops stopwords, stems English, keeps other scripts, splits CJK by character', () => {
    expect(terms('The Migrations were migrating quickly')).toEqual(['migrat', 'migrat', 'quickli']);
    expect(terms('Релиз по вторникам')).toEqual(['релиз', 'по', 'вторникам']);
    expect(terms('認証を直す')).toEqual(['認', '証', 'を', '直', 'す']);
    expect(queryTerms('the of and ?!')).toEqual([]);
    expect(queryTerms(Array.from({ length: 200 }, (_, i) => `word${i}`).join(' '))).toHaveLength(MAX_QUERY_TERMS);
  });

  it('BM25F matches whole words by stem, weights name over body, and normalises per query', () => {
    const files = [
      doc('date.md', 'ISO dates everywhere.'),
      doc('login.md', 'The login flow posts a form.', { name: 'Login flow' }),
      doc('notes.md', 'Someone mentioned the login once, in passing, among many other words about other things entirely.'),
    ];
    const r = relevance(files, 'updating the login flows');
    expect(Array.from(r.scores)).toEqual([0, 1, expect.any(Number)]);
    expect(r.scores[2]).toBeGreaterThan(0);
    expect(r.scores[2]).toBeLessThan(0.5);
    expect(r.terms).toEqual(['updat', 'login', 'flow']);
  });
});

describe('supersession and age', () => {
  const f = (path: string, updated: string, extra: { status?: string; supersedes?: string[] } = {}) => ({ path, updated, mtimeMs: 0, ...extra });

  it('a newer file supersedes what it names; in a ring the newer stands; at equal age neither', () => {
    const s = supersession([f('new.md', '2026-09-01', { supersedes: ['old'] }), f('old.md', '2026-01-01', { supersedes: ['new.md'] }), f('x.md', '2026-01-01', { status: 'superseded' })]);
    expect([...s.superseded]).toEqual([['old.md', 'superseded by new.md'], ['x.md', 'status: superseded']]);
    expect(s.cycles).toEqual([['new.md', 'old.md']]);
    const tie = supersession([f('a.md', '2026-01-01', { supersedes: ['b.md'] }), f('b.md', '2026-01-01', { supersedes: ['a.md'] })]);
    expect(tie.superseded.size).toBe(0);
    expect(supersession([f('a.md', '2026-01-01', { supersedes: ['gone.md'] })]).missing).toEqual([{ path: 'a.md', target: 'gone.md' }]);
  });

  it('age is updated, else created, else the last commit, else the mtime', () => {
    expect(fileTime({ updated: '2026-02-01', created: '2026-01-01', mtimeMs: 5 }).source).toBe('updated');
    expect(fileTime({ created: '2026-01-01', committedMs: 7, mtimeMs: 5 }).source).toBe('created');
    expect(fileTime({ committedMs: 7, mtimeMs: 5 })).toMatchObject({ ms: 7, source: 'git' });
    expect(fileTime({ updated: 'soon', mtimeMs: 5 })).toMatchObject({ ms: 5, source: 'mtime' });
  });
});
