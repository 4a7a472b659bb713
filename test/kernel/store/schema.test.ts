import { describe, expect, it } from 'vitest';
import { isoTimestamp, isResolvedStatus } from '../../../src/kernel/store/schema.js';

describe('isResolvedStatus', () => {
  it('reads resolved and the words people write for it as resolved', () => {
    expect(['resolved', 'closed', 'done', 'fixed', 'wontfix'].map(isResolvedStatus)).toEqual([true, true, true, true, true]);
  });

  it('reads anything else as not resolved, case included', () => {
    expect(['open', 'superseded', 'Resolved', 'DONE', '', undefined].map(isResolvedStatus)).toEqual([false, false, false, false, false, false]);
  });
});

describe('isoTimestamp', () => {
  it('writes UTC to the second', () => {
    expect(isoTimestamp(new Date('2026-11-21T15:30:12.987+02:00'))).toBe('2026-11-21T13:30:12Z');
    expect(isoTimestamp(new Date(0))).toBe('1970-01-01T00:00:00Z');
  });
});
