/**
 * The one date reader for frontmatter, access stats and options: an ISO 8601 date (2026-11-21) or
 * date-time (2026-11-21T15:30:12Z, a space instead of T, optional seconds, fraction and zone).
 * A value without a zone, date-only or not, is UTC, so a date means the same on every machine.
 * Calendar-invalid values (2026-02-30, 24:00) and anything else are rejected.
 */
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/** Values already read (a pack reads the same few dates thousands of times). */
const parsed = new Map<string, number | undefined>();

/** Milliseconds since the epoch, or undefined when the value is not a real ISO date or date-time. */
export function parseDate(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (parsed.has(value)) return parsed.get(value);
  const ms = readDate(value);
  if (parsed.size > 10_000) parsed.clear();
  parsed.set(value, ms);
  return ms;
}

function readDate(value: string): number | undefined {
  const m = ISO.exec(value.trim());
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return undefined;
  const [hour, minute, second] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const ms = Math.round(Number(m[7] ?? 0) * 1000);
  let offset = 0;
  const zone = m[8];
  if (zone && zone.toUpperCase() !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    const [zh, zm] = [Number(digits.slice(0, 2)), Number(digits.slice(2) || 0)];
    if (zh > 23 || zm > 59) return undefined;
    offset = (zone[0] === '-' ? -1 : 1) * (zh * 60 + zm) * 60_000;
  }
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  utc.setUTCHours(hour, minute, second, ms);
  return utc.getTime() - offset;
}

/** The UTC day of a moment, as YYYY-MM-DD. */
export const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** parseDate as a number: NaN when the value is missing or not a date (for sorting and comparisons). */
export function dateMs(value: string | undefined): number {
  return parseDate(value) ?? Number.NaN;
}

const SPAN = /^(\d+)\s*(m|min|h|d|w)$/i;
const SPAN_MS: Record<string, number> = { m: 60_000, min: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** A `--since` value as a moment: a span back from now (`30m`, `12h`, `14d`, `2w`) or an ISO date or date-time; undefined when it is neither. */
export function sinceMs(value: string, nowMs: number): number | undefined {
  const span = SPAN.exec(value.trim());
  if (span) return nowMs - Number(span[1]) * SPAN_MS[span[2].toLowerCase()];
  return parseDate(value.trim());
}
