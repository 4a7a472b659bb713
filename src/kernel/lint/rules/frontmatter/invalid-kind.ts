import { MEMORY_KINDS, MEMORY_SEVERITIES, MEMORY_STATUSES, RESOLVED_SYNONYMS } from '../../../store/schema.js';
import { keyLine } from '../../text.js';
import type { LintRule, Report } from '../../types.js';

const STATUSES: readonly string[] = MEMORY_STATUSES;

const rule: LintRule = {
  id: 'frontmatter/invalid-kind',
  description: `\`kind\` is one of ${MEMORY_KINDS.join(', ')} and \`status\` one of ${STATUSES.join(', ')}: they drive scoring and archival, so a typo silently opts a file out.`,
  defaultSeverity: 'warning',
  fixable: false,
  check(ctx) {
    const out: Report[] = [];
    for (const file of ctx.files) {
      if (file.kind !== undefined && !(MEMORY_KINDS as readonly string[]).includes(file.kind)) {
        out.push({ file: file.path, line: keyLine(file, 'kind'), column: 1, message: `unknown kind "${file.kind}"; expected one of ${MEMORY_KINDS.join(', ')}` });
      }
      if (file.status !== undefined && !STATUSES.includes(file.status)) {
        const hint = (RESOLVED_SYNONYMS as readonly string[]).includes(file.status) ? ' (read as resolved; write `resolved`)' : '';
        out.push({ file: file.path, line: keyLine(file, 'status'), column: 1, message: `unknown status "${file.status}"; expected one of ${STATUSES.join(', ')}${hint}` });
      }
      if (file.severity !== undefined && !(MEMORY_SEVERITIES as readonly string[]).includes(file.severity)) {
        out.push({ file: file.path, line: keyLine(file, 'severity'), column: 1, message: `unknown severity "${file.severity}"; expected one of ${MEMORY_SEVERITIES.join(', ')}` });
      }
    }
    return out;
  },
};

export default rule;
