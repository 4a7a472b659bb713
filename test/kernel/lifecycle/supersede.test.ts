import { describe, expect, it } from 'vitest';
import { supersession, type SupersedableFile } from '../../../src/kernel/lifecycle/supersede.js';

const file = (path: string, updated: string, fields: Partial<SupersedableFile> = {}): SupersedableFile => ({ path, updated, mtimeMs: 0, ...fields });

describe('supersession', () => {
  it('a file supersedes what it names when it is not older; the entry may leave out .md, ./ or its own folder', () => {
    const result = supersession([
      file('notes/new.md', '2026-03-01', { supersedes: ['old', './notes/older.md', '/gone.md'] }),
      file('notes/old.md', '2026-01-01'),
      file('notes/older.md', '2026-03-01'),
    ]);
    expect(result.superseded).toEqual(new Map([['notes/old.md', 'superseded by notes/new.md'], ['notes/older.md', 'superseded by notes/new.md']]));
    expect(result.missing).toEqual([{ path: 'notes/new.md', target: '/gone.md' }]);
    expect(result.cycles).toEqual([]);
  });

  it('an older file naming a newer one supersedes nothing, and a file naming itself is ignored', () => {
    const result = supersession([file('a.md', '2025-01-01', { supersedes: ['b.md', 'a.md'] }), file('b.md', '2026-01-01')]);
    expect(result.superseded.size).toBe(0);
    expect(result.missing).toEqual([]);
  });

  it('two files naming each other: the newer stands; at the same age neither is superseded and the ring is reported once', () => {
    const newer = supersession([file('x.md', '2026-02-01', { supersedes: ['y.md'] }), file('y.md', '2026-01-01', { supersedes: ['x.md'] })]);
    expect(newer.superseded).toEqual(new Map([['y.md', 'superseded by x.md']]));
    expect(newer.cycles).toEqual([['x.md', 'y.md']]);
    const same = supersession([file('x.md', '2026-01-01', { supersedes: ['y.md'] }), file('y.md', '2026-01-01', { supersedes: ['x.md'] })]);
    expect(same.superseded.size).toBe(0);
    expect(same.cycles).toEqual([['x.md', 'y.md']]);
  });

  it('status: superseded marks a file that nothing names', () => {
    const result = supersession([file('a.md', '2026-01-01', { status: 'superseded' }), file('b.md', '2026-01-01', { status: 'active' })]);
    expect(result.superseded).toEqual(new Map([['a.md', 'status: superseded']]));
  });
});
