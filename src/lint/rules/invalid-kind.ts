import { MEMORY_KINDS } from '../../store/schema.js';
import { keyLine } from '../text.js';
import type { LintRule, Report } from '../types.js';

const STATUSES = ['open', 'resolved', 'superseded'];

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
        out.push({ file: file.path, line: keyLine(file, 'status'), column: 1, message: `unknown status "${file.status}"; expected one of ${STATUSES.join(', ')}` });
      }
    }
    return out;
  },
};

export default rule;
