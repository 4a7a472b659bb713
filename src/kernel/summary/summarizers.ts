/**
 * The agents `--summarize-with` may ask for a session summary at SessionEnd, in their headless mode
 * (`claude -p`, `codex exec`): a fixed list, never a command taken from a file or a repository.
 */
export const SUMMARY_AGENTS = ['claude', 'codex'] as const;
export type SummaryAgent = (typeof SUMMARY_AGENTS)[number];

/**
 * Set in the headless agent's environment: a memctx hook that sees it is running inside memctx's own
 * background summary and starts no other (no recursion).
 */
export const SUMMARY_JOB_ENV = 'MEMCTX_SUMMARY_JOB';

/** How long (seconds) `--summarize-with` waits for the agent's answer by default. */
export const DEFAULT_SUMMARIZE_TIMEOUT = 60;

export function isSummaryAgent(name: unknown): name is SummaryAgent {
  return typeof name === 'string' && (SUMMARY_AGENTS as readonly string[]).includes(name);
}
