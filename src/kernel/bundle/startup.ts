/**
 * What the SessionStart bundle costs (issue 35, Deliver 5): its tokens by source against the budget and
 * the size Claude Code keeps of a hook's output. Pure: over the packed result.
 */
import { isSessionFile } from '../memindex/groups.js';

/** The profile and budget of the SessionStart hook `memctx init --agent claude` writes (and `status --startup` measures). */
export const SESSION_START_PROFILE = 'rehydrate';
export const SESSION_START_BUDGET = 2000;
/** The SessionStart hook's command, as init writes it. */
export const SESSION_START_COMMAND = `memctx pack --profile ${SESSION_START_PROFILE} --budget ${SESSION_START_BUDGET} --quiet`;

/**
 * Characters of hook output Claude Code puts into the context inline; longer output is moved to a file and
 * the model sees "Output too large", the path and a 2 KB preview. Claude Code's hooks reference names no
 * figure; 10,000 is what Claude Code 2.1.330 does (test/e2e/claude/hooks.e2e.ts pins it). Kept as a named
 * constant so one edit corrects it.
 */
export const CLAUDE_HOOK_OUTPUT_LIMIT_CHARS = 10_000;

export interface StartupCost {
  tokens: number;
  budget: number;
  bySource: { index: number; pinned: number; sessions: number; drifted: number; others: number };
  chars: number;
  hookOutputLimitChars: number;
  overHookLimit: boolean;
}

interface Packed {
  tokens: number;
  budget: number;
  text: string;
  files: readonly { path: string; kind?: string; bundleTokens: number }[];
}

/** The bundle's tokens split by where they come from; the index takes the headings and framing too. */
export function startupCost(result: Packed, picks: readonly string[], driftedTokens: number): StartupCost {
  const pinned = new Set(picks);
  const bySource = { index: 0, pinned: 0, sessions: 0, drifted: driftedTokens, others: 0 };
  for (const file of result.files) {
    if (pinned.has(file.path)) bySource.pinned += file.bundleTokens;
    else if (isSessionFile(file)) bySource.sessions += file.bundleTokens;
    else bySource.others += file.bundleTokens;
  }
  bySource.index = Math.max(0, result.tokens - bySource.pinned - bySource.sessions - bySource.others - driftedTokens);
  const chars = result.text.length;
  return { tokens: result.tokens, budget: result.budget, bySource, chars, hookOutputLimitChars: CLAUDE_HOOK_OUTPUT_LIMIT_CHARS, overHookLimit: chars > CLAUDE_HOOK_OUTPUT_LIMIT_CHARS };
}
