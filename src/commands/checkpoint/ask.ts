/**
 * When to ask the agent for its session summary (design §7): once per threshold crossing. A
 * threshold the usage fell back below (after a compaction) is asked for again on the next crossing;
 * nothing is asked while Claude Code is already continuing because of a Stop hook (`stop_hook_active`).
 */
import { agentSummaryRules } from '../../kernel/summary/limits.js';

export const DEFAULT_ASK_AT = [80];

export interface CheckpointDecision {
  /** The highest threshold newly crossed: ask now. */
  ask?: number;
  /** The thresholds asked for in this session after this decision. */
  asked: number[];
}

export function decideCheckpoint(percent: number, thresholds: readonly number[], asked: readonly number[], stopHookActive: boolean): CheckpointDecision {
  const still = asked.filter((t) => percent >= t);
  const crossed = thresholds.filter((t) => percent >= t && !still.includes(t));
  if (stopHookActive || crossed.length === 0) return { asked: still };
  return { ask: Math.max(...crossed), asked: [...still, ...crossed].sort((a, b) => a - b) };
}

export interface AskInput {
  percent: number;
  used: number;
  window: number;
  threshold: number;
  sessionId?: string;
  /** Ask for `memctx flush --agent-summary` instead of the MCP tool. */
  cli?: boolean;
  target: number;
  max: number;
}

/** What the agent is told (Claude Code's Stop hook `reason`). */
export function askText(input: AskInput): string {
  const command = `\`memctx flush --agent-summary${input.sessionId ? ` --session-id ${input.sessionId}` : ''} --goal "…" --progress "…" --decision "…" --changed PATH --blocker "…" --next "…"\` (repeat an option for more items)`;
  const how = input.cli
    ? `run ${command}`
    : `call the memctx \`flush\` MCP tool${input.sessionId ? ` with session_id "${input.sessionId}"` : ''} (without the memctx MCP server, run ${command})`;
  return [
    `memctx: the context is ${input.percent}% full (${input.used.toLocaleString('en-US')} of ${input.window.toLocaleString('en-US')} tokens), past ${input.threshold}%.`,
    `Before anything else, save this session's summary: ${how}.`,
    agentSummaryRules(input.target, input.max),
    'Write what is true now: finished work under progress, what remains under next_steps. Then carry on, or stop if the task is done.',
  ].join(' ');
}
