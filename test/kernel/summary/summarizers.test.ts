import { describe, expect, it } from 'vitest';
import { isSummaryAgent, SUMMARY_AGENTS, SUMMARY_JOB_ENV } from '../../../src/kernel/summary/summarizers.js';

describe('summary agents', () => {
  it('are claude and codex only: never a command', () => {
    expect(SUMMARY_AGENTS).toEqual(['claude', 'codex']);
    expect(['claude', 'codex'].map(isSummaryAgent)).toEqual([true, true]);
    expect(['cursor', 'claude -p', 'sh -c x', '', undefined, 1].map(isSummaryAgent)).toEqual([false, false, false, false, false, false]);
    expect(SUMMARY_JOB_ENV).toBe('MEMCTX_SUMMARY_JOB');
  });
});
