/** Capacity levels: green below 80%, yellow 80-89%, orange 90-94%, red 95% and over. */
import { MemctxError } from '../errors.js';
import type { CountedItem } from './count.js';

export const LEVELS = ['green', 'yellow', 'orange', 'red'] as const;
export type Level = (typeof LEVELS)[number];

/** The percentage at which each level starts. */
export interface Thresholds {
  yellow: number;
  orange: number;
  red: number;
}

export const DEFAULT_THRESHOLDS: Thresholds = { yellow: 80, orange: 90, red: 95 };

/** What to do at each level. */
export const ADVICE: Record<Level, string> = {
  green: 'Normal operation: no action needed.',
  yellow: 'Plan compaction within 10 operations: pick what to drop or summarise.',
  orange: 'Compact now, before the next major operation; defer non-critical file loads.',
  red: 'Emergency compaction: compact now and shed low-priority content.',
};

/** A command to run next, and why. */
export interface NextStep {
  command: string;
  why: string;
}

/**
 * What to run next at this level (nothing while green): save the session to memory, then compact —
 * Claude Code's `/compact`, or `memctx compact` for other agents. `transcript` is a shell word naming
 * the transcript; `memctx` the command prefix that reaches the memory directory.
 */
export function nextSteps(level: Level, options: { format: string; transcript: string; memctx?: string }): NextStep[] {
  if (level === 'green') return [];
  const flush = { command: `${options.memctx ?? 'memctx'} flush --transcript ${options.transcript}`, why: 'save the goal, decisions and next steps to memory before they are compacted away' };
  const when = level === 'yellow' ? 'within the next few operations' : 'now';
  if (options.format === 'claude') return [flush, { command: '/compact', why: `in Claude Code, ${when}` }];
  return [flush, { command: `memctx compact ${options.transcript} --out compacted.md`, why: `${when}: a compacted transcript to continue from` }];
}

/** Why these thresholds are unusable, or undefined when they are fine (0 < yellow < orange < red ≤ 100). */
export function thresholdsProblem(t: Thresholds): string | undefined {
  for (const key of ['yellow', 'orange', 'red'] as const) {
    if (!Number.isFinite(t[key]) || t[key] <= 0 || t[key] > 100) return `the ${key} threshold must be a percentage above 0 and at most 100, got ${t[key]}`;
  }
  if (!(t.yellow < t.orange && t.orange < t.red)) return `thresholds must rise: yellow < orange < red, got ${t.yellow}, ${t.orange}, ${t.red}`;
  return undefined;
}

/** `--thresholds 80,90,95`: the percentages where yellow, orange and red start; a usage error naming `option` otherwise. */
export function parseThresholds(value: string, option = '--thresholds'): Thresholds {
  const parts = value.split(',').map((p) => p.trim());
  const nums = parts.map(Number);
  const hint = `e.g. ${option} 80,90,95`;
  if (parts.length !== 3 || parts.some((p) => p === '') || nums.some((x) => !Number.isFinite(x))) {
    throw new MemctxError(`${option} takes three percentages (yellow,orange,red), got "${value}"`, { hint });
  }
  const t = { yellow: nums[0], orange: nums[1], red: nums[2] };
  const why = thresholdsProblem(t);
  if (why) throw new MemctxError(`${option}: ${why}`, { hint });
  return t;
}

export function levelFor(percent: number, t: Thresholds = DEFAULT_THRESHOLDS): Level {
  if (percent >= t.red) return 'red';
  if (percent >= t.orange) return 'orange';
  if (percent >= t.yellow) return 'yellow';
  return 'green';
}

/** True when `level` is `min` or worse. */
export function atLeast(level: Level, min: Level): boolean {
  return LEVELS.indexOf(level) >= LEVELS.indexOf(min);
}

export interface Capacity {
  used: number;
  window: number;
  /** used / window × 100, unrounded. */
  percent: number;
  level: Level;
  advice: string;
}

/** The level for `used` tokens of a `window`; the window must be a positive number. */
export function capacity(used: number, window: number, thresholds: Thresholds = DEFAULT_THRESHOLDS): Capacity {
  if (!(window > 0) || !Number.isFinite(window)) throw new RangeError(`the context window must be a positive number of tokens, got ${window}`);
  if (!(used >= 0) || !Number.isFinite(used)) throw new RangeError(`used tokens must be zero or more, got ${used}`);
  const percent = (used / window) * 100;
  const level = levelFor(percent, thresholds);
  return { used, window, percent, level, advice: ADVICE[level] };
}

/** A percentage for display: one decimal, rounded down so 89.96% never shows as the next level's 90.0%. */
export function formatPercent(percent: number): string {
  return `${(Math.floor(percent * 10) / 10).toFixed(1)}%`;
}

/** A text bar of `width` cells, full at 100%. */
export function bar(percent: number, width = 40): { filled: string; empty: string } {
  const n = Math.max(0, Math.min(width, Math.round((Math.min(percent, 100) / 100) * width)));
  return { filled: '█'.repeat(n), empty: '░'.repeat(width - n) };
}

/** What `memctx status` reports of one transcript (cli/ui/capacity.ts renders it). */
export interface StatusReport {
  file: string;
  format: string;
  level: Level;
  percent: number;
  used: number;
  window: number;
  windowSource: string;
  model?: string;
  /** Where the figure came from: the agent's recorded usage, or counting the text. */
  source: 'recorded' | 'counted';
  /** For recorded usage: which record (and its line, when the whole file was read). */
  recorded?: { kind: string; line?: number };
  /** For counted figures: the encoding and how many items were counted. */
  encoding?: string;
  items?: number;
  largest: CountedItem[];
  /** What `largest` was counted over: the whole context, or only the transcript's last bytes (then lines are not given). */
  largestScope?: 'context' | { lastBytes: number };
  advice: string;
  /** The exact commands to run next (none while green). */
  next?: NextStep[];
  thresholds: { yellow: number; orange: number; red: number };
  notes: string[];
}
