import { fileTime } from '../../../lifecycle/age.js';
import { isoTimestamp } from '../../../store/schema.js';
import type { LintRule, Report } from '../../types.js';

const FROM = { created: 'its `created` date', git: 'its last commit time', mtime: "the file's modification time", updated: '' } as const;

const rule: LintRule = {
  id: 'frontmatter/missing-updated',
  description: 'A file with frontmatter records when it last changed (`updated`, or `modified` where the file uses that key); recency scoring and archival depend on it. `--fix` sets it from `created`, else the last commit time in git, else (a file git does not track) the modification time — never the time of a fresh clone.',
  defaultSeverity: 'warning',
  fixable: true,
  check(ctx) {
    const out: Report[] = [];
    for (const file of ctx.files) {
      if (!file.hasFrontmatter || file.updated !== undefined) continue;
      const key = file.format.dateKey;
      const age = fileTime(file);
      const value = age.source === 'created' ? file.created! : isoTimestamp(new Date(age.ms));
      out.push({ file: file.path, line: 1, column: 1, message: `no "${key}" date; \`--fix\` sets it to ${FROM[age.source]} (${value})`, fix: { type: 'set-date', key, value } });
    }
    return out;
  },
};

export default rule;
