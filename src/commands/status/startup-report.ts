/** The terminal report of `memctx status --startup`: the SessionStart bundle's tokens by source, its budget and characters. */
import type { ChalkInstance } from 'chalk';
import { renderTable, thousands as n } from '../../kernel/cli/table.js';
import type { StartupReport } from './startup.js';

const SOURCES = ['index', 'pinned', 'sessions', 'drifted', 'others'] as const;

/** What each source is, as the table names it. */
const WHAT: Record<(typeof SOURCES)[number], string> = {
  index: 'the bundle header and the index of every memory',
  pinned: 'the files the profile loads first (latest state, open next steps, decisions, issues)',
  sessions: 'other sessions',
  drifted: 'the Drifted memories block',
  others: 'other memories',
};

const percent = (part: number, whole: number) => `${whole > 0 ? Math.round((part * 100) / whole) : 0}%`;

export function renderStartup(r: StartupReport, chalk: ChalkInstance): string {
  const width = Math.max('tokens'.length, n(r.tokens).length);
  const rows = SOURCES.map((source) => [source, n(r.bySource[source]).padStart(width), percent(r.bySource[source], r.tokens).padStart(4), chalk.dim(WHAT[source])]);
  rows.push([chalk.bold('total'), chalk.bold(n(r.tokens).padStart(width)), '100%', '']);
  const color = r.overHookLimit || r.pinnedLeftOut.length > 0 ? chalk.red : chalk.green;
  const lines = [
    `${chalk.bold('SessionStart bundle')}  ${n(r.tokens)} / ${n(r.budget)} tokens (${percent(r.tokens, r.budget)} of the budget)  ${chalk.dim(r.command)}`,
    renderTable(rows, chalk, ['source', 'tokens'.padStart(width), 'share', '']).trimEnd().replace(/ +$/gm, ''),
    `characters: ${n(r.chars)} / ${n(r.hookOutputLimitChars)} (Claude Code's hook-output limit)  ${r.overHookLimit ? chalk.red.bold('OVER') : chalk.green('fits')}`,
    color(r.advice),
  ];
  return `${lines.join('\n')}\n`;
}
