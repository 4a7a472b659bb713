import { isSessionFile } from '../../../memindex/groups.js';
import { bodyLines } from '../../text.js';
import type { LintRule, Report } from '../../types.js';

/** The six fields of the default session template. */
const SESSION_FIELDS = ['Goal', 'Progress', 'Decisions', 'Changed Files', 'Blockers', 'Next Steps'];

function fieldPattern(field: string): RegExp {
  const name = field.replace(/ /g, '[ _-]?');
  return new RegExp(`^\\s*(?:#{1,6}\\s*${name}\\b|\\*\\*${name}\\b|${name}\\s*:|[-*]\\s+\\*\\*${name}\\b)`, 'i');
}
const PATTERNS = SESSION_FIELDS.map((field) => ({ field, pattern: fieldPattern(field) }));

const rule: LintRule = {
  id: 'session/missing-field',
  description: `A session summary (kind session, or a file in sessions/, not written from another flush template) has all six fields: ${SESSION_FIELDS.join(', ')}.`,
  defaultSeverity: 'warning',
  fixable: false,
  check(ctx) {
    const out: Report[] = [];
    for (const file of ctx.files) {
      if (!isSessionFile(file) || (file.kind !== undefined && file.kind !== 'session')) continue;
      // Written by flush from another template (notes, or a user template): not the six fields.
      if (typeof file.data.template === 'string' && file.data.template !== 'session') continue;
      const lines = bodyLines(file).filter((l) => !l.fenced);
      for (const { field, pattern } of PATTERNS) {
        if (lines.some((l) => pattern.test(l.text))) continue;
        out.push({ file: file.path, line: file.bodyLine, column: 1, message: `session summary has no "${field}" field; write it (or "none recorded") so the omission is visible` });
      }
    }
    return out;
  },
};

export default rule;
