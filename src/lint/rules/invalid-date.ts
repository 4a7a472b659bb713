import { keyLine } from '../text.js';
import type { LintRule, Report } from '../types.js';

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/;
export const DATE_KEYS = ['updated', 'modified', 'created', 'expires'];

/** True for an ISO 8601 date or date-time that names a real calendar day and time. */
export function isIsoDate(value: string): boolean {
  const m = ISO.exec(value.trim());
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return false;
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || (m[6] !== undefined && Number(m[6]) > 59))) return false;
  return !Number.isNaN(Date.parse(value.trim().replace(' ', 'T')));
}

const rule: LintRule = {
  id: 'frontmatter/invalid-date',
  description: '`updated`, `modified`, `created` and `expires` are ISO dates (2026-11-21) or date-times (2026-11-21T15:30:12Z).',
  defaultSeverity: 'error',
  fixable: false,
  check(ctx) {
    const out: Report[] = [];
    for (const file of ctx.files) {
      for (const key of DATE_KEYS) {
        const value = file.data[key];
        if (value === undefined || value === null || value === '') continue;
        if (typeof value === 'string' && isIsoDate(value)) continue;
        const shown = typeof value === 'string' ? `"${value}"` : JSON.stringify(value) ?? String(value);
        out.push({ file: file.path, line: keyLine(file, key), column: 1, message: `"${key}" is not an ISO date: ${shown}; write it as YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ` });
      }
    }
    return out;
  },
};

export default rule;
