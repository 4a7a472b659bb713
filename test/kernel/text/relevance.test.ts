import { describe, expect, it } from 'vitest';
import { fieldBags, relevance, type MatchableFile } from '../../../src/kernel/text/relevance.js';

const file = (path: string, fields: Partial<MatchableFile> = {}): MatchableFile => ({ path, name: '', description: '', tags: [], body: '', ...fields });

const FILES = [
  file('project_auth.md', { name: 'Auth refactor', description: 'moving sessions to JWT tokens', body: 'Tokens are checked in the gateway.' }),
  file('notes/deploy.md', { name: 'Deploy', description: 'how we ship', tags: ['auth'], body: 'Deploys run on main.' }),
  file('user_prefs.md', { name: 'Preferences', description: 'editor and shell', body: 'Tabs, not spaces.' }),
];

describe('relevance', () => {
  it('scores each file 0-1 against the best, with the share of the query each matches', () => {
    const r = relevance(FILES, 'auth tokens');
    expect(r.terms).toHaveLength(2);
    expect(r.scores[0]).toBe(1);
    expect(r.scores[1]).toBeGreaterThan(0);
    expect(r.scores[1]).toBeLessThan(1);
    expect(r.scores[2]).toBe(0);
    expect(r.coverage[0]).toBe(1);
    expect(r.coverage[2]).toBe(0);
    expect(r.coverage[1]).toBeGreaterThan(0);
    expect(r.coverage[1]).toBeLessThan(1);
    // Per file and term: the first file holds both, the second only "auth" (a tag), the third neither.
    expect([...r.matched]).toEqual([1, 1, 1, 0, 0, 0]);
  });

  it('matches the path with the name', () => {
    const r = relevance(FILES, 'deploy');
    expect([...r.scores]).toEqual([0, 1, 0]);
  });

  it('matches the path without its last .md, in any case', () => {
    const r = relevance([file('alpha.md'), file('beta.MD'), file('md.Md'), file('notes.md.md'), file('x.mD')], 'md');
    expect(r.terms).toEqual(['md']);
    expect([...r.matched]).toEqual([0, 0, 1, 1, 0]);
  });

  it('has no terms and scores nothing for a query of stopwords and punctuation', () => {
    const r = relevance(FILES, 'the and of ?!');
    expect(r.terms).toEqual([]);
    expect([...r.scores]).toEqual([0, 0, 0]);
  });

  it('gives the same scores from bags counted ahead as from the text', () => {
    const bagged = FILES.map((f) => ({ ...f, bags: fieldBags(f) }));
    for (const query of ['auth tokens', 'tabs spaces editor', 'gateway deploys main']) {
      expect(relevance(bagged, query)).toEqual(relevance(FILES, query));
    }
  });
});
