import { describe, expect, it } from 'vitest';
import { isIsoDate } from '../../../../../src/kernel/lint/rules/frontmatter/invalid-date.js';
import { VALID, doc, lint, lines, mem } from '../../../../helpers/lint.js';

describe('frontmatter rules', () => {
  it('invalid-date: calendar dates and date-times only', async () => {
    expect(['2026-11-21', '2026-11-21T15:30:12Z', '2026-11-21T15:30', '2026-11-21 15:30:12+01:00', '2024-02-29', '2026-11-21T15:30:12.123Z'].every(isIsoDate)).toBe(true);
    expect(['2026-02-30', '2025-02-29', '2026-13-01', '21/11/2026', 'yesterday', '2026-11-21T25:00', '2026-1-2', ''].some(isIsoDate)).toBe(false);
    const files = [mem('a.md', doc({ ...VALID, updated: '2026-02-30', created: 'last week', expires: 2027 })), mem('b.md', doc(VALID))];
    expect(lines(await lint(['frontmatter/invalid-date'], { files }))).toEqual([
      'a.md:5:1 frontmatter/invalid-date "updated" is not an ISO date: "2026-02-30"; write it as YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ',
      'a.md:6:1 frontmatter/invalid-date "created" is not an ISO date: "last week"; write it as YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ',
      'a.md:7:1 frontmatter/invalid-date "expires" is not an ISO date: 2027; write it as YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ',
    ]);
  });
});
