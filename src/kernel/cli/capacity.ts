/** Rendering capacity results: the `status` report and the one-line status line. */
import type { ChalkInstance } from 'chalk';
import { bar, formatPercent, type Level, type StatusReport } from '../capacity/levels.js';
import type { CountedItem } from '../capacity/count.js';
import { thousands as n } from './table.js';
import { shortTokens } from './statusline.js';



function levelColor(chalk: ChalkInstance, level: Level): (text: string) => string {
  if (level === 'green') return chalk.green;
  if (level === 'yellow') return chalk.yellow;
  if (level === 'orange') return chalk.level >= 2 ? chalk.ansi256(208) : chalk.yellowBright;
  return chalk.red;
}

const RECORDED: Record<string, string> = {
  'claude-usage': 'Claude Code usage (input + cache creation + cache read)',
  'claude-compact-boundary': 'Claude Code compaction (postTokens)',
  'codex-token-count': 'Codex token_count (last_token_usage.total_tokens)',
};

/** What an item is, for the largest-items list. */
function what(c: CountedItem): string {
  const kind = c.kind === 'tool_result' ? 'tool result' : c.kind === 'tool_call' ? 'tool call' : c.role === 'unknown' ? 'text' : `${c.role} message`;
  return c.toolName ? `${kind} (${c.toolName})` : kind;
}

export function renderStatus(r: StatusReport, chalk: ChalkInstance): string {
  const color = levelColor(chalk, r.level);
  const b = bar(r.percent);
  const lines = [
    `${chalk.bold(r.file)}  ${color(chalk.bold(r.level.toUpperCase()))}  ${formatPercent(r.percent)}  ${n(r.used)} / ${n(r.window)} tokens`,
    `${color(b.filled)}${chalk.dim(b.empty)}`,
    `${color(r.advice)}`,
  ];
  const source =
    r.source === 'recorded'
      ? `recorded usage: ${RECORDED[r.recorded?.kind ?? ''] ?? r.recorded?.kind}${r.recorded?.line ? `, line ${r.recorded.line}` : ''}`
      : `counted with ${r.encoding} (${n(r.items ?? 0)} item${r.items === 1 ? '' : 's'}, ${r.format})`;
  lines.push(chalk.dim(`source: ${source}`));
  lines.push(chalk.dim(`window: ${n(r.window)} (${r.windowSource})${r.model ? ` · model ${r.model}` : ''}`));
  if (r.largest.length) {
    const scope = typeof r.largestScope === 'object' ? ` in the last ${shortTokens(r.largestScope.lastBytes).replace(/k$/, ' kB').replace(/M$/, ' MB')} of the transcript` : '';
    lines.push(`largest items${scope} (first candidates to compact):`);
    const width = Math.max(...r.largest.map((c) => n(c.tokens).length));
    for (const c of r.largest) {
      const at = typeof r.largestScope === 'object' ? '' : `line ${String(c.line).padEnd(6)} `;
      lines.push(`  ${n(c.tokens).padStart(width)} tokens  ${at}${what(c)}${c.preview ? chalk.dim(`  ${c.preview}`) : ''}`);
    }
  }
  if (r.next?.length) {
    lines.push('next:');
    for (const step of r.next) lines.push(`  ${chalk.bold(step.command)}${chalk.dim(`  # ${step.why}`)}`);
  }
  return `${lines.join('\n')}\n`;
}

export interface CompactReport {
  name: string;
  out?: string;
  tokensBefore: number;
  tokensAfter: number;
  saved: number;
  savedPercent: number;
  result: { duplicates: number; condensed: number; confirmations: number; marked: unknown[]; verbatimFrom?: number; items: number };
  missing: number;
}

export function renderCompactReport(r: CompactReport, chalk: ChalkInstance): string {
  const res = r.result;
  const lines = [
    `${chalk.bold(`compacted ${r.name}`)}${r.out ? ` → ${r.out}` : ''}: ${n(r.tokensBefore)} → ${n(r.tokensAfter)} tokens (saved ${n(r.saved)}, ${r.savedPercent.toFixed(1)}%)`,
    `  ${res.duplicates} repeated tool output${res.duplicates === 1 ? '' : 's'} collapsed · ${res.condensed} long output${res.condensed === 1 ? '' : 's'} condensed · ${res.confirmations} confirmation${res.confirmations === 1 ? '' : 's'} shortened`,
    `  kept verbatim: ${res.marked.length} marked line${res.marked.length === 1 ? '' : 's'}, ${res.verbatimFrom ? `the last exchanges from line ${res.verbatimFrom}` : res.items ? 'every exchange (there are no more than --keep-last)' : 'nothing (the transcript is empty)'}`,
  ];
  if (res.marked.length) lines.push(r.missing ? chalk.red(`  ${r.missing} of ${res.marked.length} marked lines did not survive`) : chalk.green(`  all ${res.marked.length} marked lines survived`));
  return `${lines.join('\n')}\n`;
}
