import { keyLine } from '../../text.js';
import type { LintRule, Report } from '../../types.js';

const rule: LintRule = {
  id: 'frontmatter/invalid-type',
  description: '`type` is one of the configured types (default: user, feedback, project, reference).',
  defaultSeverity: 'error',
  fixable: false,
  check(ctx) {
    const out: Report[] = [];
    for (const file of ctx.files) {
      if (file.type === undefined || ctx.config.types.includes(file.type)) continue;
      const line = 'type' in file.data ? keyLine(file, 'type') : keyLine(file, 'metadata');
      out.push({ file: file.path, line, column: 1, message: `invalid type "${file.type}"; expected one of ${ctx.config.types.join(', ')}` });
    }
    return out;
  },
};

export default rule;
