import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { FlushInput, FlushOptions, resolveFlush } from '../../../src/commands/flush/schema.js';
import { ARG_LABEL, CLI_LABEL } from '../../../src/kernel/schema.js';

describe('resolveFlush', () => {
  it('settles the defaults: the session template, 500 and 650 tokens, o200k_base', () => {
    expect(resolveFlush({}, CLI_LABEL)).toEqual({ template: 'session', sessionId: undefined, target: 500, max: 650, encoding: 'o200k_base', dryRun: undefined, agentSummary: undefined, summarizeWith: undefined, summarizeTimeout: undefined });
  });

  it('renames the options as the use case takes them, and reads token sizes', () => {
    expect(resolveFlush({ template: 'decision', session_id: 's1', dry_run: true, agent_summary: true, target: '1k', max: 2000, goal: 'g', progress: ['p'], summarize_with: 'my-llm', summarize_timeout: 30 }, ARG_LABEL)).toEqual({
      template: 'decision', sessionId: 's1', dryRun: true, agentSummary: true, target: 1000, max: 2000, encoding: 'o200k_base', goal: 'g', progress: ['p'], summarizeWith: 'my-llm', summarizeTimeout: 30,
    });
  });

  it('refuses a target over the maximum, naming both as the door spells them', () => {
    expect(() => resolveFlush({ target: 700 }, CLI_LABEL)).toThrow('--target (700) must not be over --max (650)');
    expect(() => resolveFlush({ target: 300, max: 200 }, ARG_LABEL)).toThrow('target (300) must not be over max (200)');
  });

  it('with the hook, summarize_with is an agent, never a command of the user\'s', () => {
    expect(resolveFlush({ hook: true, summarize_with: 'codex' }, CLI_LABEL)).toMatchObject({ hook: true, summarizeWith: 'codex' });
    expect(() => resolveFlush({ hook: true, summarize_with: 'my-llm --fast' }, CLI_LABEL)).toThrow('with --hook, --summarize-with takes claude or codex (the agent\'s headless mode, in the background), not "my-llm --fast"');
  });

  it('refuses an unknown option and a bad encoding', () => {
    expect(() => resolveFlush({ goals: 'x' }, CLI_LABEL)).toThrow('unknown option --goals');
    expect(() => resolveFlush({ encoding: 'p50k_base' }, CLI_LABEL)).toThrow(/^--encoding must be one of o200k_base, cl100k_base, got "p50k_base"$/);
  });
});

describe('FlushInput', () => {
  it("the MCP tool takes the six fields under the model's names, a session id and dry_run; nothing read from disk", () => {
    expect(Object.keys(FlushInput.entries)).toEqual(['goal', 'progress', 'decisions', 'changed_files', 'blockers', 'next_steps', 'session_id', 'dry_run']);
    expect(v.safeParse(FlushInput, { goal: 'g', from: 'secrets.json' }).success).toBe(false);
    expect(Object.keys(FlushOptions.entries)).toContain('from');
  });
});
