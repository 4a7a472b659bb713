import type { ChalkInstance } from 'chalk';
import type { PackResult, Tier } from '../../kernel/bundle/select.js';
import { renderTable, thousands as n } from '../../kernel/cli/table.js';

function tierColour(chalk: ChalkInstance, tier: Tier): string {
  if (tier === 'full') return chalk.green(tier);
  if (tier === 'description') return chalk.cyan(tier);
  if (tier === 'head' || tier === 'passages') return chalk.magenta(tier);
  if (tier === 'none') return chalk.yellow(tier);
  return chalk.dim(tier);
}

/** A longer ranking shows its first REPORT_ROWS files and how many more there are (--json has all). */
const REPORT_MAX_ROWS = 60;
const REPORT_ROWS = 50;

/** The pack report for stderr: each file's score, sub-scores, tier and tokens (the first 50 of a long ranking), then the totals. */
export function renderPackReport(result: PackResult, chalk: ChalkInstance, extra: { fileCount: number; out?: string }): string {
  const withTask = result.files.some((f) => f.task > 0);
  const shown = result.files.length > REPORT_MAX_ROWS ? result.files.slice(0, REPORT_ROWS) : result.files;
  const rows = shown.map((f) => [
    ...(withTask ? [f.task.toFixed(2)] : []),
    String(f.score), String(f.relevance), String(f.recency), String(f.dependency), tierColour(chalk, f.tier), `${f.estimated ? '~' : ''}${n(f.tokens)}`, f.bundleTokens ? n(f.bundleTokens) : '-', f.note ? `${f.path}  ${chalk.dim(`(${f.note})`)}` : f.path,
  ]);
  const lines: string[] = [];
  if (rows.length) lines.push(renderTable(rows, chalk, [...(withTask ? ['task'] : []), 'score', 'rel', 'rec', 'dep', 'tier', 'tokens', 'bundle', 'path']).replace(/\n$/, ''));
  if (shown.length < result.files.length) lines.push(chalk.dim(`… and ${n(result.files.length - shown.length)} more files in rank order (memctx pack --json lists them all)`));
  const where = extra.out ? ` → ${extra.out}` : '';
  // A task's pack counts only the files that may enter the bundle: the others' tokens are estimates.
  const about = result.estimated ? 'about ' : '';
  lines.push(
    `bundle: ${n(result.tokens)} of ${n(result.budget)} tokens (${result.encoding}, ${result.format})${where}; full text ${n(result.fullTokens)}; index ${result.indexLines.included}/${result.indexLines.total} lines`,
    result.saved >= 0
      ? `saved: ${about}${n(result.saved)} tokens against loading all ${n(extra.fileCount)} files in full (${about}${n(result.totalFileTokens)} tokens)`
      : `no saving: the bundle is ${about}${n(-result.saved)} tokens more than loading all ${n(extra.fileCount)} files in full (${about}${n(result.totalFileTokens)} tokens), for its index and framing`,
  );
  const left = result.leftOut;
  if (left.files.length || left.indexLines) {
    const what = [left.files.length ? `${left.files.length} file(s): ${listSome(left.files, 10)}` : '', left.indexLines ? `${left.indexLines} index line(s)` : ''].filter(Boolean).join('; ');
    lines.push(chalk.yellow(`left out to stay within the budget: ${what}`));
  }
  return `${lines.join('\n')}\n`;
}

/** The first few names, and how many more there are (--json has them all). */
function listSome(names: string[], most: number): string {
  const more = names.length - most;
  return more > 0 ? `${names.slice(0, most).join(', ')}, … and ${more} more` : names.join(', ');
}

/**
 * MEMCTX_TIMING's table: wall milliseconds per phase of one pack (start-up: Node and memctx's own
 * modules until the command ran), with each phase's share of the total.
 */
export function renderTiming(phases: readonly { phase: string; ms: number }[], chalk: ChalkInstance): string {
  const total = phases.reduce((sum, p) => sum + p.ms, 0);
  const rows = phases.map((p) => [p.phase, String(Math.round(p.ms)), total > 0 ? `${Math.round((100 * p.ms) / total)}%` : '-']);
  rows.push(['total', String(Math.round(total)), '']);
  return renderTable(rows, chalk, ['phase', 'ms', 'share']);
}
