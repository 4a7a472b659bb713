/** A session summary's token target and the maximum over which it is shortened to the target. */
export const DEFAULT_TARGET = 500;
export const DEFAULT_MAX = 650;

// What the agent is told (kept apart from agent-summary.ts's checks: the Stop hook's request loads none of them).
/** The six fields, each "what + why", the target and the ceiling: what the agent is told. */
export function agentSummaryRules(target: number, max: number): string {
  return (
    `Give all six fields: goal, progress, decisions, changed_files, blockers, next_steps (write "none" for one with nothing in it). ` +
    `Aim for about ${target} tokens, at most ${max}: one short line per item. Each decision says what was decided and why. ` +
    `No item over ${MAX_ITEM_LINES} lines: ${LONG_OUTPUT_RULE}. No secrets: name a credential, never its value.`
  );
}

/** An agent's item longer than this is refused (the 50-line rule: a log is summarized, never pasted). */
export const MAX_ITEM_LINES = 5;

export const LONG_OUTPUT_RULE = 'never paste a log, trace or diff (the 50-line rule); write it as one item, "Error: … / Root cause: … / Fix: …"';
