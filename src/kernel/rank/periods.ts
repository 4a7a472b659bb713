/**
 * The times a query names ("on 3 June, 2023", "October 13, 2023", "in July 2023", "2023-06-03",
 * "in June"), so the retrieval can put files dated then first among those the query's words reach.
 * Dates are UTC, as frontmatter dates without a zone are (dates.ts). Pure.
 */

/** A span of time [start, end) in ms, or a month of any year (0-11) for "in June". */
export type Period = { start: number; end: number } | { month: number };

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
/** A month's name, or its three-letter form (`sept` too), as a capture group. */
const MONTH = `(${MONTHS.map((m) => `${m.slice(0, 3)}(?:${m.slice(3)})?`).join('|')}|sept)`;
const DAY = '(\\d{1,2})(?:st|nd|rd|th)?';
const YEAR = '(\\d{4})';

const monthOf = (name: string) => MONTHS.findIndex((m) => m.startsWith(name.slice(0, 3)));

/** The day as a period, none when it is no calendar day (31 June). */
function day(year: number, month: number, date: number): Period | undefined {
  const start = Date.UTC(year, month, date);
  return new Date(start).getUTCDate() === date ? { start, end: Date.UTC(year, month, date + 1) } : undefined;
}

/** Each pattern with what its match names; the earlier patterns win where matches overlap. */
const PATTERNS: [RegExp, (m: RegExpMatchArray) => Period | undefined][] = [
  [/\b(\d{4})-(\d{2})-(\d{2})\b/g, (m) => day(Number(m[1]), Number(m[2]) - 1, Number(m[3]))],
  [new RegExp(`\\b${DAY}\\s+(?:of\\s+)?${MONTH}\\b\\.?,?\\s*${YEAR}\\b`, 'g'), (m) => day(Number(m[3]), monthOf(m[2]), Number(m[1]))],
  [new RegExp(`\\b${MONTH}\\.?\\s+${DAY},?\\s*${YEAR}\\b`, 'g'), (m) => day(Number(m[3]), monthOf(m[1]), Number(m[2]))],
  [new RegExp(`\\b${MONTH}\\.?,?\\s+${YEAR}\\b`, 'g'), (m) => ({ start: Date.UTC(Number(m[2]), monthOf(m[1]), 1), end: Date.UTC(Number(m[2]), monthOf(m[1]) + 1, 1) })],
  // A month alone only after a word that makes it one ("in May", not "may"), its full name.
  [new RegExp(`\\b(?:in|during|early|late|mid|of)\\s+(${MONTHS.join('|')})\\b`, 'g'), (m) => ({ month: monthOf(m[1]) })],
];

/** The periods a query names, in the order of the patterns. */
export function queryPeriods(query: string): Period[] {
  const text = query.toLowerCase();
  const taken: [number, number][] = [];
  const periods: Period[] = [];
  for (const [pattern, read] of PATTERNS) {
    for (const m of text.matchAll(pattern)) {
      const at = m.index;
      const end = at + m[0].length;
      if (taken.some(([a, b]) => at < b && end > a)) continue;
      const period = read(m);
      if (!period) continue;
      periods.push(period);
      taken.push([at, end]);
    }
  }
  return periods;
}

/** Whether a moment falls in one of the periods, or less than `after` ms (under four weeks) after one ends. */
export function inPeriods(ms: number, periods: readonly Period[], after = 0): boolean {
  if (!Number.isFinite(ms)) return false;
  const inMonth = (month: number) => new Date(ms).getUTCMonth() === month || (after > 0 && new Date(ms - after).getUTCMonth() === month);
  return periods.some((p) => ('month' in p ? inMonth(p.month) : ms >= p.start && ms < p.end + after));
}
