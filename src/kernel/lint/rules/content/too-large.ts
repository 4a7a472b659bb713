import { isSessionFile } from '../../../memindex/groups.js';
import type { LintRule, Report } from '../../types.js';

const rule: LintRule = {
  id: 'content/too-large',
  description: 'A memory file stays under the token limit (default 2,000, exact o200k_base count); session files have their own budget (session/over-budget).',
  defaultSeverity: 'warning',
  fixable: false,
  needsTokens: true,
  async check(ctx) {
    const out: Report[] = [];
    const max = ctx.thresholds.maxTokens;
    for (const file of ctx.files) {
      if (isSessionFile(file)) continue;
      const tokens = await ctx.tokensOver(file, max);
      if (tokens !== undefined) out.push({ file: file.path, line: 1, column: 1, message: `${tokens} tokens, over the ${max}-token limit; split it into smaller memory files or summarise it` });
    }
    return out;
  },
};

export default rule;
