import { INDEX_FILE } from '../../../store/scan.js';
import { isExternal, joinPath, markdownLinks } from '../../../markdown/links.js';
import { repoHas } from '../../repo.js';
import type { LintRule, Report } from '../../types.js';

const rule: LintRule = {
  id: 'index/dangling-link',
  description: 'Every link in MEMORY.md points to a file that exists.',
  defaultSeverity: 'error',
  fixable: false,
  check(ctx) {
    if (ctx.indexText === undefined) return [];
    const out: Report[] = [];
    for (const link of markdownLinks(ctx.indexText)) {
      if (link.kind === 'wiki' || isExternal(link.raw) || link.target === '') continue;
      const inside = joinPath('', link.target.replace(/\/$/, ''));
      if (inside !== undefined) {
        if (ctx.memoryPaths.has(inside) || ctx.memoryDirs.has(inside)) continue;
      } else {
        // A link leaving the memory directory: checked against the repository when there is one.
        const inRepo = ctx.repo?.memoryPrefix !== undefined ? joinPath(ctx.repo.memoryPrefix, link.target) : undefined;
        if (inRepo === undefined || repoHas(ctx.repo!, inRepo)) continue;
      }
      out.push({ file: INDEX_FILE, line: link.line, column: link.column, message: `link to ${link.raw}, which does not exist; run \`memctx index\` to rebuild the index, or fix the hand-written link` });
    }
    return out;
  },
};

export default rule;
