import { isSessionFile } from '../../../memindex/groups.js';
import type { LintRule, Report } from '../../types.js';

const rule: LintRule = {
  id: 'session/over-budget',
  description: 'A session summary stays within its token budget (default 650; `memctx flush` targets 500).',
  defaultSeverity: 'warning',
  fixable: false,
  needsTokens: true,
  async check(ctx) {
    const out: Report[] = [];
    const max = ctx.thresholds.sessionMaxTokens;
    for (const file of ctx.files) {
      if (!isSessionFile(file)) continue;
      const tokens = await ctx.tokensOver(file, max);
      if (tokens !== undefined) out.push({ file: file.path, line: 1, column: 1, message: `session summary is ${tokens} tokens, over its ${max}-token budget; keep the decisions and next steps, summarise the rest` });
    }
    return out;
  },
};

export default rule;
