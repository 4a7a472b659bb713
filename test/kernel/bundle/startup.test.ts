// What the SessionStart bundle costs, by source (issue 35, Deliver 5).
import { describe, expect, it } from 'vitest';
import { CLAUDE_HOOK_OUTPUT_LIMIT_CHARS, SESSION_START_COMMAND, startupCost } from '../../../src/kernel/bundle/startup.js';

describe('startupCost', () => {
  it('splits the bundle into index, pinned, sessions, drifted list and others', () => {
    const files = [
      { path: 'user_prefs.md', bundleTokens: 120 },
      { path: 'sessions/2026-11-01T100000-a.md', bundleTokens: 300 },
      { path: 'state.md', kind: 'state', bundleTokens: 200 },
      { path: 'project_b.md', bundleTokens: 40 },
    ];
    expect(startupCost({ tokens: 900, budget: 2000, text: 'x'.repeat(3600), files }, ['user_prefs.md', 'state.md'], 90)).toEqual({
      tokens: 900,
      budget: 2000,
      bySource: { index: 150, pinned: 320, sessions: 300, drifted: 90, others: 40 },
      chars: 3600,
      hookOutputLimitChars: 10_000,
      overHookLimit: false,
    });
  });

  it('says when the bundle is longer than Claude Code keeps of a hook output', () => {
    const cost = startupCost({ tokens: 3000, budget: 3000, text: 'x'.repeat(CLAUDE_HOOK_OUTPUT_LIMIT_CHARS + 1), files: [] }, [], 0);
    expect([cost.overHookLimit, cost.bySource.index]).toEqual([true, 3000]);
  });
});

describe('the SessionStart hook', () => {
  it('is the command init writes and status --startup measures: profile rehydrate at 2,000 tokens', () => {
    expect(SESSION_START_COMMAND).toBe('memctx pack --profile rehydrate --budget 2000 --quiet');
  });
});
