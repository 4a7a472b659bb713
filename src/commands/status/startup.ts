/**
 * `memctx status --startup`: what the SessionStart hook `init --agent claude` writes injects into every
 * session, measured by packing the same bundle (profile rehydrate, its budget) without writing anything:
 * no memory file, no access count, no cache. Exit 1 when Claude Code would not put it into the context.
 */
import { EXIT_OK, EXIT_PROBLEMS } from '../../kernel/errors.js';
import { pack } from '../../kernel/bundle/bundle.js';
import { SESSION_START_PROFILE, type StartupCost } from '../../kernel/bundle/startup.js';
import type { EncodingName } from '../../kernel/tokens/encodings.js';
import { thousands as n } from '../../kernel/cli/table.js';

export interface StartupRequest {
  /** The memory directory, absolute. */
  root: string;
  budget: number;
  encoding: EncodingName;
  /** The command prefix the bundle's load hints use (`memctx --dir PATH`); default `memctx`. */
  memctx?: string;
}

export interface StartupDeps {
  now: () => Date;
  env: Record<string, string | undefined>;
}

export interface StartupReport extends Omit<StartupCost, 'tokens' | 'budget'> {
  /** The pack command whose bundle this is (the hook's, at this budget). */
  command: string;
  profile: string;
  budget: number;
  tokens: number;
  /** `pinned: true` files that do not fit in full: the hook's pack then exits 1. */
  pinnedLeftOut: string[];
  advice: string;
  warnings: string[];
}

/** The budget that keeps a bundle of this many tokens and characters under the limit, rounded down to hundreds. */
export function budgetUnderLimit(tokens: number, chars: number, limit: number): number {
  const fits = Math.floor((tokens * limit * 0.9) / Math.max(chars, 1) / 100) * 100;
  return Math.max(100, fits);
}

/** What to do about the bundle, in one sentence or two. */
export function startupAdvice(cost: Pick<StartupReport, 'tokens' | 'chars' | 'hookOutputLimitChars' | 'overHookLimit' | 'pinnedLeftOut' | 'budget'>): string {
  const advice: string[] = [];
  if (cost.overHookLimit) {
    const budget = budgetUnderLimit(cost.tokens, cost.chars, cost.hookOutputLimitChars);
    advice.push(
      `Over the limit: Claude Code keeps hook output over ${n(cost.hookOutputLimitChars)} characters out of the context (the model sees a 2 KB preview and a file path).` +
        ` Lower --budget in the SessionStart hook (.claude/settings.json), to about ${budget}: check with \`memctx status --startup --budget ${budget}\`.`,
    );
  }
  if (cost.pinnedLeftOut.length > 0) {
    advice.push(
      `${cost.pinnedLeftOut.length} pinned file(s) do not fit in full within ${n(cost.budget)} tokens (${cost.pinnedLeftOut.join(', ')}): the hook's pack exits 1, and Claude Code adds a SessionStart hook's output only when it exits 0.` +
        ' Unpin them (pinned: false) or shorten them.',
    );
  }
  return advice.length > 0 ? advice.join(' ') : 'Within the budget and the hook-output limit: the whole bundle reaches the model.';
}

export async function startupStatus(request: StartupRequest, deps: StartupDeps): Promise<{ report: StartupReport; exitCode: number }> {
  const result = await pack(
    { root: request.root, budget: request.budget, profile: SESSION_START_PROFILE, format: 'markdown', encoding: request.encoding, memctx: request.memctx, redactSecrets: true, saveCaches: false },
    { now: deps.now, env: deps.env },
  );
  // pack gives the SessionStart cost for the rehydrate profile.
  const { tokens, budget, ...cost } = result.startup!;
  const facts = { tokens, budget, chars: cost.chars, hookOutputLimitChars: cost.hookOutputLimitChars, overHookLimit: cost.overHookLimit, pinnedLeftOut: result.pinnedLeftOut };
  const report: StartupReport = {
    command: `memctx pack --profile ${SESSION_START_PROFILE} --budget ${budget}`,
    profile: SESSION_START_PROFILE,
    budget,
    tokens,
    ...cost,
    pinnedLeftOut: result.pinnedLeftOut,
    advice: startupAdvice(facts),
    warnings: [...result.problems.map((p) => `${p.path}${p.line ? `:${p.line}` : ''}: ${p.message}`), ...result.warnings],
  };
  return { report, exitCode: cost.overHookLimit || result.pinnedLeftOut.length > 0 ? EXIT_PROBLEMS : EXIT_OK };
}
