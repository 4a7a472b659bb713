import { diffIndex, indexBlockStart } from '../../../memindex/merge.js';
import { INDEX_FILE } from '../../../store/scan.js';
import type { LintRule } from '../../types.js';
import { lineAt } from '../../../lines.js';

const rule: LintRule = {
  id: 'index/stale',
  description: 'MEMORY.md is exactly what `memctx index` would generate from the memory files (the text outside its markers is left alone). `--fix` rebuilds it.',
  defaultSeverity: 'error',
  fixable: true,
  check(ctx) {
    if (ctx.indexUnreadable) return [];
    const expected = ctx.expectedIndex();
    if (expected instanceof Error) {
      return [{ file: INDEX_FILE, line: (expected as Error & { line?: number }).line ?? 1, column: 1, message: `${expected.message}; fix the markers by hand (or remove both) so the index can be rebuilt` }];
    }
    if (ctx.indexText === undefined) {
      return [{ file: INDEX_FILE, line: 1, column: 1, message: 'MEMORY.md does not exist; run `memctx index` (or `memctx lint --fix`)', fix: { type: 'rebuild-index' } }];
    }
    if (expected === ctx.indexText) return [];
    const diff = diffIndex(ctx.indexText, expected);
    const at = indexBlockStart(ctx.indexText);
    const line = at === -1 ? 1 : lineAt(ctx.indexText, at);
    const parts = [
      diff.missing.length ? `${diff.missing.length} line${diff.missing.length === 1 ? '' : 's'} missing` : '',
      diff.unexpected.length ? `${diff.unexpected.length} line${diff.unexpected.length === 1 ? '' : 's'} out of date` : '',
    ].filter(Boolean);
    const detail = parts.length ? parts.join(', ') : at === -1 ? 'no generated block' : 'layout or limits differ';
    return [{ file: INDEX_FILE, line, column: 1, message: `MEMORY.md is out of date (${detail}); run \`memctx index\` (or \`memctx lint --fix\`)`, fix: { type: 'rebuild-index' } }];
  },
};

export default rule;
