/**
 * The status line's text. Claude Code runs it after every assistant message, so its colours are three
 * SGR codes written here rather than chalk (whose loading would cost more than the rest of the line);
 * the codes are chalk's own, byte for byte.
 */
import type { Level } from '../capacity/levels.js';

/** 0: no colour; 1: 16 colours; 2 or more: 256 colours (orange). */
export type StatuslineColors = 0 | 1 | 2 | 3;

const OPEN: Record<Level, string> = { green: '\x1b[32m', yellow: '\x1b[33m', orange: '\x1b[38;5;208m', red: '\x1b[31m' };

function paint(level: Level, colors: StatuslineColors): (text: string) => string {
  if (colors === 0) return (text) => text;
  const open = level === 'orange' && colors < 2 ? '\x1b[93m' : OPEN[level];
  return (text) => (text === '' ? '' : `${open}${text}\x1b[39m`);
}

/** 84.2k, 1.2M, 950 */
export function shortTokens(x: number): string {
  if (x >= 1_000_000) return `${(Math.round(x / 100_000) / 10).toString()}M`;
  if (x >= 1000) return `${Math.round(x / 1000)}k`;
  return String(x);
}

/** `● 83% 166k/200k · Sonnet yellow`, from orange on with `/compact now`. */
export function renderStatusline(s: { level: Level; percent: number; used: number; window: number; model?: string }, colors: StatuslineColors): string {
  const color = paint(s.level, colors);
  const pct = `${Math.floor(s.percent)}%`;
  const model = s.model ? ` · ${s.model}` : '';
  const tag = s.level === 'green' ? '' : ` ${s.level}`;
  // From orange on, the one thing to do, in the few characters a status line has.
  const next = s.level === 'orange' || s.level === 'red' ? ` · ${color('/compact now')}` : '';
  return `${color(`● ${pct}`)} ${shortTokens(s.used)}/${shortTokens(s.window)}${model}${color(tag)}${next}`;
}

/** The line printed when there is nothing to measure (or the input was unusable): neutral, never an error. */
export function neutralStatusline(model?: string): string {
  return `○ ctx –${model ? ` · ${model}` : ''}`;
}
