import { describe, expect, it } from 'vitest';
import { agentSummaryRules, DEFAULT_MAX, DEFAULT_TARGET } from '../../../src/kernel/summary/limits.js';
import { DEFAULT_THRESHOLDS } from '../../../src/kernel/lint/config.js';

describe('session summary limits', () => {
  it('a summary is aimed at 500 tokens and shortened past 650, the size lint holds a session file to', () => {
    expect([DEFAULT_TARGET, DEFAULT_MAX]).toEqual([500, 650]);
    expect(DEFAULT_THRESHOLDS.sessionMaxTokens).toBe(DEFAULT_MAX);
  });

  it('the agent is told the six fields, the target and the ceiling, the item length and the secret rule', () => {
    expect(agentSummaryRules(300, 400)).toBe(
      'Give all six fields: goal, progress, decisions, changed_files, blockers, next_steps (write "none" for one with nothing in it). ' +
        'Aim for about 300 tokens, at most 400: one short line per item. Each decision says what was decided and why. ' +
        'No item over 5 lines: never paste a log, trace or diff (the 50-line rule); write it as one item, "Error: … / Root cause: … / Fix: …". No secrets: name a credential, never its value.',
    );
  });
});
