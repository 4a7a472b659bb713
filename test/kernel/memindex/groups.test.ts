import { describe, expect, it } from 'vitest';
import { compareKeep, compareSessions, groupOf, isSessionFile, matchesListFilters, sortKey } from '../../../src/kernel/memindex/groups.js';
import type { IndexEntry } from '../../../src/kernel/store/types.js';

const entry = (path: string, fields: Partial<IndexEntry> = {}): IndexEntry => ({ path, name: path, description: '', importance: 0, pinned: false, tags: [], mtimeMs: 0, ...fields }) as IndexEntry;

describe('groupOf and isSessionFile', () => {
  it('puts sessions (by kind or folder) in Sessions, the four known types in theirs, and the rest in Other', () => {
    expect(groupOf(entry('sessions/2026-01-01.md'))).toBe('sessions');
    expect(groupOf(entry('notes/s.md', { kind: 'session', type: 'project' }))).toBe('sessions');
    expect(groupOf(entry('a.md', { type: 'feedback' }))).toBe('feedback');
    expect(groupOf(entry('b.md', { type: 'decision' }))).toBe('other');
    expect(groupOf(entry('c.md'))).toBe('other');
    expect(isSessionFile({ path: 'notes/sessions/x.md' })).toBe(false);
  });
});

describe('matchesListFilters', () => {
  const file = entry('p.md', { type: 'project', kind: 'note', tags: ['Auth', 'db'] });

  it('matches --type by group, case-insensitively; --type other takes unknown types, and an unknown type by its name', () => {
    expect(matchesListFilters(file, { type: 'PROJECT' })).toBe(true);
    expect(matchesListFilters(file, { type: 'user' })).toBe(false);
    const odd = entry('d.md', { type: 'decision' });
    expect(matchesListFilters(odd, { type: 'other' })).toBe(true);
    expect(matchesListFilters(odd, { type: 'decision' })).toBe(true);
    expect(matchesListFilters(entry('e.md'), { type: 'other' })).toBe(true);
  });

  it('matches --kind, and --kind session takes files in sessions/', () => {
    expect(matchesListFilters(file, { kind: 'note' })).toBe(true);
    expect(matchesListFilters(file, { kind: 'session' })).toBe(false);
    expect(matchesListFilters(entry('sessions/x.md'), { kind: 'Session' })).toBe(true);
  });

  it('matches --tag whatever its case, and every filter must hold', () => {
    expect(matchesListFilters(file, { tag: 'auth' })).toBe(true);
    expect(matchesListFilters(file, { tag: 'api' })).toBe(false);
    expect(matchesListFilters(file, { type: 'project', tag: 'db', kind: 'session' })).toBe(false);
    expect(matchesListFilters(file, {})).toBe(true);
  });
});

describe('orderings', () => {
  const sorted = (files: IndexEntry[], compare: (a: ReturnType<typeof sortKey>, b: ReturnType<typeof sortKey>) => number) => files.map(sortKey).sort(compare).map((k) => k.file.path);

  it('sessions: newest created (else updated) first, undated last, then by path, later names first', () => {
    const files = [
      entry('sessions/a.md', { created: '2026-01-01' }),
      entry('sessions/b.md', { updated: '2026-03-01' }),
      entry('sessions/c.md'),
      entry('sessions/d.md'),
      entry('sessions/e.md', { created: '2026-02-01', updated: '2026-12-01' }),
    ];
    expect(sorted(files, compareSessions)).toEqual(['sessions/b.md', 'sessions/e.md', 'sessions/a.md', 'sessions/d.md', 'sessions/c.md']);
  });

  it('what a group keeps: pinned, then importance, then the latest updated, undated last, then path', () => {
    const files = [
      entry('z.md', { importance: 5 }),
      entry('y.md', { pinned: true }),
      entry('b.md', { updated: '2026-01-01' }),
      entry('a.md', { updated: '2026-06-01' }),
      entry('c.md'),
      entry('d.md', { updated: 'not a date' }),
    ];
    expect(sorted(files, compareKeep)).toEqual(['y.md', 'z.md', 'a.md', 'b.md', 'c.md', 'd.md']);
  });
});
