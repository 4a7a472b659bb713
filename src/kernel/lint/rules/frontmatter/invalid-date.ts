import { keyLine } from '../../text.js';
import type { LintRule, Report } from '../../types.js';
import { parseDate } from '../../../dates.js';

const DATE_KEYS = ['updated', 'modified', 'created', 'expires'];

/** True for an ISO 8601 date or date-time that names a real calendar day and time. */
export function isIsoDate(value: string): boolean {
  return parseDate(value) !== undefined;
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
        // eslint-disable-next-line @typescript-eslint/no-base-to-string -- JSON.stringify gives undefined only for a function or symbol, which String names
        const shown = typeof value === 'string' ? `"${value}"` : JSON.stringify(value) ?? String(value);
        out.push({ file: file.path, line: keyLine(file, key), column: 1, message: `"${key}" is not an ISO date: ${shown}; write it as YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ` });
      }
    }
    return out;
  },
};

export default rule;
