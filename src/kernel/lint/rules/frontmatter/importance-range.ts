import { keyLine } from '../../text.js';
import type { LintRule, Report } from '../../types.js';

const rule: LintRule = {
  id: 'frontmatter/importance-range',
  description: '`importance` is a whole number from 1 to 10.',
  defaultSeverity: 'error',
  fixable: false,
  check(ctx) {
    const out: Report[] = [];
    for (const file of ctx.files) {
      const meta = file.data.metadata && typeof file.data.metadata === 'object' ? (file.data.metadata as Record<string, unknown>) : {};
      const value = file.data.importance ?? meta.importance;
      if (value === undefined || value === null) continue;
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 10) continue;
      const line = 'importance' in file.data ? keyLine(file, 'importance') : keyLine(file, 'metadata');
      out.push({ file: file.path, line, column: 1, message: `"importance" must be a whole number from 1 to 10 (got ${JSON.stringify(value)})` });
    }
    return out;
  },
};

export default rule;
