// checkpoint/ask.ts: when to ask for the session summary, and what the agent is told.
import { describe, expect, it } from 'vitest';
import { askText, decideCheckpoint, DEFAULT_ASK_AT } from '../../../src/commands/checkpoint/ask.js';

describe('decideCheckpoint', () => {
  it('asks once per crossing, again after the usage fell below, never while a Stop hook is active', () => {
    expect(decideCheckpoint(79.9, [80], [], false)).toEqual({ asked: [] });
    expect(decideCheckpoint(81, [80], [], false)).toEqual({ ask: 80, asked: [80] });
    expect(decideCheckpoint(90, [80], [80], false)).toEqual({ asked: [80] });
    expect(decideCheckpoint(81, [80], [], true)).toEqual({ asked: [] });
    // compacted to 30%: the threshold is re-armed, and the next crossing asks again
    expect(decideCheckpoint(30, [80], [80], false)).toEqual({ asked: [] });
    expect(decideCheckpoint(96, [80, 95], [], false)).toEqual({ ask: 95, asked: [80, 95] });
    expect(decideCheckpoint(96, [80, 95], [80], false)).toEqual({ ask: 95, asked: [80, 95] });
  });
});

describe('askText', () => {
  const input = { percent: 85, used: 170_000, window: 200_000, threshold: 80, target: 500, max: 650 };

  it('says how full the context is, then asks for the flush tool with the session, the rules and what to write', () => {
    const text = askText({ ...input, sessionId: 'sess-c' });
    expect(text.startsWith('memctx: the context is 85% full (170,000 of 200,000 tokens), past 80%. Before anything else, save this session\'s summary: call the memctx `flush` MCP tool with session_id "sess-c" (without the memctx MCP server, run `memctx flush --agent-summary --session-id sess-c --goal "…" --progress "…" --decision "…" --changed PATH --blocker "…" --next "…"` (repeat an option for more items)).')).toBe(true);
    expect(text).toContain('Aim for about 500 tokens, at most 650');
    expect(text.endsWith('Write what is true now: finished work under progress, what remains under next_steps. Then carry on, or stop if the task is done.')).toBe(true);
  });

  it('--cli asks for the command only; without a session id none is named', () => {
    const text = askText({ ...input, cli: true });
    expect(text).toContain("save this session's summary: run `memctx flush --agent-summary --goal \"…\"");
    expect(text).not.toContain('MCP');
    expect(text).not.toContain('session-id');
    expect(DEFAULT_ASK_AT).toEqual([80]);
  });
});
