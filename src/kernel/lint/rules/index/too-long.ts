import { INDEX_FILE } from '../../../store/scan.js';
import type { LintRule, Report } from '../../types.js';

const encoder = new TextEncoder();

const rule: LintRule = {
  id: 'index/too-long',
  description: 'MEMORY.md stays within its line limit (200) and byte limit (25 KB): agents load only that much of it at session start.',
  defaultSeverity: 'error',
  fixable: false,
  check(ctx) {
    const text = ctx.indexText;
    if (text === undefined) return [];
    const { indexMaxLines, indexMaxBytes } = ctx.thresholds;
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    const bytes = encoder.encode(text).length;
    const out: Report[] = [];
    if (lines > indexMaxLines) {
      out.push({ file: INDEX_FILE, line: indexMaxLines + 1, column: 1, message: `MEMORY.md has ${lines} lines, over the ${indexMaxLines}-line limit: agents never see what comes after line ${indexMaxLines}; shorten the hand-written text or archive memories (\`memctx gc\`)` });
    }
    if (bytes > indexMaxBytes) {
      out.push({ file: INDEX_FILE, line: 1, column: 1, message: `MEMORY.md is ${bytes} bytes, over the ${indexMaxBytes}-byte limit; shorten the hand-written text or archive memories (\`memctx gc\`)` });
    }
    return out;
  },
};

export default rule;
