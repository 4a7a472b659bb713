import { describe, expect, it } from 'vitest';
import { dateMs, isoDay, parseDate } from '../../src/kernel/dates.js';

describe('the one date reader', () => {
  it('reads dates and date-times; a value without a zone is UTC', () => {
    expect(parseDate('2026-11-21')).toBe(Date.UTC(2026, 10, 21));
    expect(parseDate('2026-11-21T15:30:12Z')).toBe(Date.UTC(2026, 10, 21, 15, 30, 12));
    expect(parseDate('2026-11-21 15:30')).toBe(Date.UTC(2026, 10, 21, 15, 30));
    expect(parseDate('2026-11-21T15:30:12.5+02:00')).toBe(Date.UTC(2026, 10, 21, 13, 30, 12, 500));
    expect(parseDate(' 2026-11-21T15:30:12-0130 ')).toBe(Date.UTC(2026, 10, 21, 17, 0, 12));
  });

  it('rejects calendar-invalid and non-ISO values', () => {
    for (const bad of ['2026-02-30', '2025-02-29', '2026-13-01', '2026-00-10', '2026-11-21T24:00', '2026-11-21T12:60', 'Nov 21 2026', '21/11/2026', '', '2026-11-21T15:30:12+25:00']) {
      expect([bad, parseDate(bad)]).toEqual([bad, undefined]);
    }
    expect(parseDate('2024-02-29')).toBe(Date.UTC(2024, 1, 29));
    expect(parseDate(undefined)).toBeUndefined();
    expect(dateMs('nope')).toBeNaN();
  });
});

describe('isoDay', () => {
  it('gives the UTC day of a moment', () => {
    expect(isoDay(Date.UTC(2023, 4, 8, 23, 59, 59))).toBe('2023-05-08');
    expect(isoDay(parseDate('2026-11-21T01:30:00+02:00')!)).toBe('2026-11-20');
  });
});
