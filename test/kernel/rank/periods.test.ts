import { describe, expect, it } from 'vitest';
import { inPeriods, queryPeriods } from '../../../src/kernel/rank/periods.js';

const day = (iso: string) => ({ start: Date.parse(`${iso}T00:00:00Z`), end: Date.parse(`${iso}T00:00:00Z`) + 86_400_000 });

describe('queryPeriods', () => {
  it('reads a day written day first, month first or as an ISO date', () => {
    expect(queryPeriods('What did Gina find on 1 February, 2023?')).toEqual([day('2023-02-01')]);
    expect(queryPeriods('the painting shown on October 13, 2023')).toEqual([day('2023-10-13')]);
    expect(queryPeriods('on the 4th of Oct 2023 and on 2023-06-03')).toEqual([day('2023-06-03'), day('2023-10-04')]);
  });

  it('reads a month of a year, and a month alone only after a word that makes it one', () => {
    expect(queryPeriods('Where did Joanna travel to in July 2022?')).toEqual([{ start: Date.parse('2022-07-01T00:00:00Z'), end: Date.parse('2022-08-01T00:00:00Z') }]);
    expect(queryPeriods('December, 2023')).toEqual([{ start: Date.parse('2023-12-01T00:00:00Z'), end: Date.parse('2024-01-01T00:00:00Z') }]);
    expect(queryPeriods('When did Melanie go camping in June?')).toEqual([{ month: 5 }]);
    expect(queryPeriods('we may march on; the jan release')).toEqual([]);
  });

  it('reads no day that is not on the calendar, and no bare number as a date', () => {
    expect(queryPeriods('on 31 June, 2023')).toEqual([{ start: Date.parse('2023-06-01T00:00:00Z'), end: Date.parse('2023-07-01T00:00:00Z') }]);
    expect(queryPeriods('2023-02-30, port 2023, 13 tokens')).toEqual([]);
  });
});

describe('inPeriods', () => {
  it('holds a moment inside a span or in the month of any year', () => {
    const periods = queryPeriods('on 3 June, 2023');
    expect(inPeriods(Date.parse('2023-06-03T13:56:00Z'), periods)).toBe(true);
    expect(inPeriods(Date.parse('2023-06-04T00:00:00Z'), periods)).toBe(false);
    expect(inPeriods(Date.parse('2021-06-20T00:00:00Z'), [{ month: 5 }])).toBe(true);
    expect(inPeriods(Date.parse('2021-07-20T00:00:00Z'), [{ month: 5 }])).toBe(false);
    expect(inPeriods(Number.NaN, [{ month: 5 }])).toBe(false);
  });

  it('holds a moment less than `after` past a span or a month', () => {
    const days = (n: number) => n * 86_400_000;
    const periods = queryPeriods('on 3 June, 2023');
    expect(inPeriods(Date.parse('2023-06-07T23:59:00Z'), periods, days(4))).toBe(true);
    expect(inPeriods(Date.parse('2023-06-08T00:00:00Z'), periods, days(4))).toBe(false);
    expect(inPeriods(Date.parse('2023-06-02T23:59:00Z'), periods, days(4))).toBe(false);
    expect(inPeriods(Date.parse('2021-07-03T00:00:00Z'), [{ month: 5 }], days(4))).toBe(true);
    expect(inPeriods(Date.parse('2021-07-05T00:00:00Z'), [{ month: 5 }], days(4))).toBe(false);
    expect(inPeriods(Date.parse('2021-07-03T00:00:00Z'), [{ month: 5 }])).toBe(false);
  });
});
