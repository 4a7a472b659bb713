import { DEFAULT_ARCHIVE_THRESHOLDS, staleReasons, type ArchiveThresholds } from '../../../lifecycle/archive.js';
import { keyLine } from '../../text.js';
import type { LintRule, Report } from '../../types.js';

const rule: LintRule = {
  id: 'content/stale',
  description: 'No expired memories, decisions of importance 5 or less older than 90 days, or resolved issues older than 30 days (pinned files exempt); `memctx gc --apply` archives them.',
  defaultSeverity: 'warning',
  fixable: false,
  check(ctx) {
    const out: Report[] = [];
    // Only the archive limits, copied once: staleReasons spreads them for every file, and the whole
    // thresholds object (built key by key) is slow to spread (0.7 s at 100,000 files).
    const limits: Partial<ArchiveThresholds> = {};
    for (const key of Object.keys(DEFAULT_ARCHIVE_THRESHOLDS) as (keyof ArchiveThresholds)[]) {
      if (Object.hasOwn(ctx.thresholds, key)) limits[key] = ctx.thresholds[key];
    }
    for (const file of ctx.files) {
      if (file.pinned) continue;
      for (const stale of staleReasons(file, ctx.now, limits)) {
        const line = stale.rule === 'expired' ? keyLine(file, 'expires') : keyLine(file, file.format.dateKey);
        out.push({ file: file.path, line, column: 1, message: `stale: ${stale.reason}; \`memctx gc --apply\` moves it to archive/` });
      }
    }
    return out;
  },
};

export default rule;
