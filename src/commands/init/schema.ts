/** `init`'s options: one definition for the CLI flags and the library. */
import * as v from 'valibot';
import { choice, flag } from '../../kernel/schema.js';
import { SUMMARY_AGENTS } from '../../kernel/summary/summarizers.js';

export const INIT_AGENTS = ['claude', 'codex', 'cursor'] as const;

export const InitOptions = v.strictObject({
  agent: v.optional(choice(INIT_AGENTS, "add a memory section to the agent's instructions and wire its hooks and MCP server")),
  user_config: v.optional(flag("codex: put the MCP server in your own config.toml instead of the project's")),
  summarize_with: v.optional(choice(SUMMARY_AGENTS, "with agent claude or codex: at SessionEnd, after the offline summary, ask this agent's headless mode for the summary in the background")),
  dry_run: v.optional(flag('show what would change; change nothing')),
});
