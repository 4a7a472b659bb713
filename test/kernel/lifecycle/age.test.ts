import { describe, expect, it } from 'vitest';
import { fileTime, fileTimeMs } from '../../../src/kernel/lifecycle/age.js';

const MTIME = Date.UTC(2026, 10, 28, 9, 0, 0);
const COMMIT = Date.UTC(2026, 0, 15, 12, 0, 0);

describe('fileTime', () => {
  it('takes updated first, then created', () => {
    expect(fileTime({ updated: '2026-03-01', created: '2025-01-01', committedMs: COMMIT, mtimeMs: MTIME })).toEqual({ ms: Date.UTC(2026, 2, 1), source: 'updated', label: '2026-03-01' });
    expect(fileTime({ created: '2025-01-01T10:00:00Z', committedMs: COMMIT, mtimeMs: MTIME })).toEqual({ ms: Date.UTC(2025, 0, 1, 10), source: 'created', label: '2025-01-01T10:00:00Z' });
  });

  it('skips a date that is not a real one', () => {
    expect(fileTime({ updated: '2026-02-30', created: 'yesterday', committedMs: COMMIT, mtimeMs: MTIME })).toEqual({ ms: COMMIT, source: 'git', label: '2026-01-15 (last commit)' });
  });

  it('then the last commit, then the file time', () => {
    expect(fileTime({ mtimeMs: MTIME })).toEqual({ ms: MTIME, source: 'mtime', label: '2026-11-28 (file time)' });
    expect(fileTime({ committedMs: Number.NaN, mtimeMs: MTIME }).source).toBe('mtime');
  });
});

describe('fileTimeMs', () => {
  it("is fileTime's ms for every source", () => {
    for (const file of [
      { updated: '2026-03-01', mtimeMs: MTIME },
      { updated: 'bad', created: '2025-01-01', mtimeMs: MTIME },
      { committedMs: COMMIT, mtimeMs: MTIME },
      { committedMs: Number.POSITIVE_INFINITY, mtimeMs: MTIME },
      { mtimeMs: MTIME },
    ]) {
      expect(fileTimeMs(file)).toBe(fileTime(file).ms);
    }
  });
});
