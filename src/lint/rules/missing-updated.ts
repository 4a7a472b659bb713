import { isoTimestamp } from '../../store/schema.js';
import type { LintRule, Report } from '../types.js';

const rule: LintRule = {
  id: 'frontmatter/missing-updated',
  description: 'A file with frontmatter records when it last changed (`updated`, or `modified` where the file uses that key); recency scoring and archival depend on it. `--fix` sets it to the file\'s modification time.',
  defaultSeverity: 'warning',
  fixable: true,
  check(ctx) {
    const out: Report[] = [];
    for (const file of ctx.files) {
      if (!file.hasFrontmatter || file.updated !== undefined) continue;
      const key = file.format.dateKey;
      const value = isoTimestamp(new Date(file.mtimeMs));
      out.push({ file: file.path, line: 1, column: 1, message: `no "${key}" date; \`--fix\` sets it to the file's modification time (${value})`, fix: { type: 'set-date', key, value } });
    }
    return out;
  },
};

export default rule;
