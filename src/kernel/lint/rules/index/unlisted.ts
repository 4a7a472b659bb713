import { isSessionFile } from '../../../memindex/groups.js';
import { linkedPaths } from '../../../markdown/links.js';
import type { LintRule, Report } from '../../types.js';

const rule: LintRule = {
  id: 'index/unlisted',
  description: 'Every memory file (sessions aside: the index lists the latest five) is listed in MEMORY.md, so agents know it exists.',
  defaultSeverity: 'warning',
  fixable: true,
  check(ctx) {
    if (ctx.indexText === undefined) return [];
    const listed = linkedPaths(ctx.indexText);
    const expected = ctx.expectedIndex();
    const wouldList = expected instanceof Error ? undefined : linkedPaths(expected);
    const out: Report[] = [];
    for (const file of ctx.files) {
      if (isSessionFile(file) || listed.has(file.path)) continue;
      if (wouldList && !wouldList.has(file.path)) {
        out.push({ file: file.path, line: 1, column: 1, message: 'not listed in MEMORY.md: the index is at its size limit, so agents never see this file; archive or merge memories (`memctx gc`)' });
      } else {
        out.push({ file: file.path, line: 1, column: 1, message: 'not listed in MEMORY.md; run `memctx index` (or `memctx lint --fix`)', fix: wouldList ? { type: 'rebuild-index' } : undefined });
      }
    }
    return out;
  },
};

export default rule;
