import { describe, expect, it } from 'vitest';
import { InitOptions, INIT_AGENTS } from '../../../src/commands/init/schema.js';
import { ARG_LABEL, CLI_LABEL, parseInput } from '../../../src/kernel/schema.js';

describe('InitOptions', () => {
  it('takes an agent, the agent to summarize with, and the two flags', () => {
    const options = { agent: 'codex', summarize_with: 'codex', user_config: true, dry_run: false };
    expect(parseInput(InitOptions, options, CLI_LABEL)).toEqual(options);
    expect(parseInput(InitOptions, {}, CLI_LABEL)).toEqual({});
    expect([...INIT_AGENTS]).toEqual(['claude', 'codex', 'cursor']);
  });

  it('refuses an agent it cannot wire and an unknown option, naming them as the door spells them', () => {
    expect(() => parseInput(InitOptions, { agent: 'vim' }, CLI_LABEL)).toThrow(/^--agent must be one of claude, codex, cursor, got "vim"$/);
    expect(() => parseInput(InitOptions, { summarize_with: 'cursor' }, ARG_LABEL)).toThrow(/^summarize_with must be one of/);
    expect(() => parseInput(InitOptions, { force: true }, CLI_LABEL)).toThrow('unknown option --force');
  });
});
