// status --startup's use case: the advice and the budget it suggests (the measure itself: cli/startup.test.ts).
import { describe, expect, it } from 'vitest';
import { budgetUnderLimit, startupAdvice } from '../../../src/commands/status/startup.js';

const facts = { tokens: 1900, budget: 2000, chars: 7000, hookOutputLimitChars: 10_000, overHookLimit: false, pinnedLeftOut: [] as string[] };

describe('startupAdvice', () => {
  it('within both limits: the whole bundle reaches the model', () => {
    expect(startupAdvice(facts)).toBe('Within the budget and the hook-output limit: the whole bundle reaches the model.');
  });

  it('over the hook-output limit: what Claude Code does, and the budget to try', () => {
    expect(startupAdvice({ ...facts, tokens: 6000, budget: 6000, chars: 24_000, overHookLimit: true })).toBe(
      'Over the limit: Claude Code keeps hook output over 10,000 characters out of the context (the model sees a 2 KB preview and a file path). Lower --budget in the SessionStart hook (.claude/settings.json), to about 2200: check with `memctx status --startup --budget 2200`.',
    );
  });

  it('pinned files left out: the hook exits 1', () => {
    expect(startupAdvice({ ...facts, pinnedLeftOut: ['a.md', 'b.md'] })).toBe(
      "2 pinned file(s) do not fit in full within 2,000 tokens (a.md, b.md): the hook's pack exits 1, and Claude Code adds a SessionStart hook's output only when it exits 0. Unpin them (pinned: false) or shorten them.",
    );
  });
});

describe('budgetUnderLimit', () => {
  it('scales the tokens to 90% of the limit, in hundreds, at least 100', () => {
    expect(budgetUnderLimit(6000, 24_000, 10_000)).toBe(2200);
    expect(budgetUnderLimit(25_000, 100_000, 10_000)).toBe(2200);
    expect(budgetUnderLimit(50, 1_000_000, 10_000)).toBe(100);
    expect(budgetUnderLimit(10, 0, 10_000)).toBe(90_000);
  });
});
