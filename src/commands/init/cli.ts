import type { Command } from 'commander';
import type * as v from 'valibot';
import { EXIT_OK, MemctxError } from '../../kernel/errors.js';
import type { Context } from '../../kernel/cli/context.js';
import type { Runner } from '../../kernel/cli/run.js';
import { displayPath } from '../../kernel/store/paths.js';
import { init } from './init.js';
import { renderAgentChanges } from './report.js';
import { join } from 'node:path';
import { InitOptions, INIT_AGENTS } from './schema.js';
import { SUMMARY_AGENTS } from '../../kernel/summary/summarizers.js';
import { CLI_LABEL, fromFlags, parseInput } from '../../kernel/schema.js';

type InitFlags = v.InferOutput<typeof InitOptions>;
type InitOutcome = Awaited<ReturnType<typeof init>>;
type AgentOutcome = NonNullable<InitOutcome['agent']>;

export function register(program: Command, run: Runner): void {
  program
    .command('init')
    .description('create .memory/ with MEMORY.md, templates/ and a .gitignore for .memctx/ (never overwrites); --agent wires an agent to it')
    // The value is checked by init's schema; the help lists the choices as commander would.
    .option('--agent <name>', `add a memory section to the agent's instructions (CLAUDE.md, AGENTS.md or .cursor/rules/memctx.mdc); for claude also the status line, hooks and MCP server in .claude/settings.json and .mcp.json, approved in .claude/settings.local.json; the MCP server for codex in .codex/config.toml, for cursor in .cursor/mcp.json (choices: ${INIT_AGENTS.map((a) => `"${a}"`).join(', ')})`)
    .option('--summarize-with <agent>', `with --agent claude or codex: at SessionEnd, after the offline summary, ask this agent's headless mode (claude -p, codex exec) for the summary in the background; its answer replaces the offline one only when it passes every check (choices: ${SUMMARY_AGENTS.map((a) => `"${a}"`).join(', ')})`)
    .option('--user-config', "codex: put the MCP server in your own config.toml ($CODEX_HOME or ~/.codex) instead of the project's .codex/config.toml")
    .option('-n, --dry-run', 'show what would change; change nothing')
    .action(run(runInit));
}

/** `memctx init`: check the flags, create the directory (and wire the agent), then report. */
async function runInit(ctx: Context, raw: Record<string, unknown>): Promise<number> {
  // The options are checked by init's one schema (src/commands/init/schema.ts).
  const flags: InitFlags = parseInput(InitOptions, fromFlags(raw), CLI_LABEL);
  // --agent writes hooks and an MCP server, which use only a memory directory inside the project.
  const root = ctx.memoryDir({ allowMissing: true, here: true, confined: flags.agent !== undefined });
  if (flags.user_config && flags.agent !== 'codex') throw new MemctxError('--user-config is for --agent codex only', { hint: 'add --agent codex, or leave --user-config out' });
  if (flags.summarize_with && flags.agent !== 'claude' && flags.agent !== 'codex') {
    throw new MemctxError('--summarize-with needs --agent claude or --agent codex (their SessionEnd hook asks the agent)', { hint: `add --agent ${flags.summarize_with}, or leave --summarize-with out` });
  }
  const outcome = await init({ root, agent: flags.agent, dryRun: flags.dry_run, userConfig: flags.user_config, summarizeWith: flags.summarize_with }, { cwd: ctx.io.cwd, env: ctx.io.env, home: ctx.io.home });
  const { agent } = outcome;
  for (const warning of agent?.warnings ?? []) ctx.ui.warn(warning);
  if (agent?.launcher?.kind === 'missing') ctx.ui.warn(agent.launcher.note);
  if (ctx.ui.json) {
    ctx.ui.printJson(initJson(root, outcome));
    return EXIT_OK;
  }
  reportCreated(ctx, root, outcome);
  if (agent) reportAgent(ctx, agent, outcome.dryRun);
  return EXIT_OK;
}

/** The --json report: the directory, what was created, and the agent's changes without their old text. */
function initJson(root: string, { created, dryRun, mergeDriver, agent }: InitOutcome): Record<string, unknown> {
  return {
    dir: root,
    created,
    ...(dryRun ? { dryRun: true } : {}),
    ...(mergeDriver ? { mergeDriver: true } : {}),
    ...(agent ? { agent: { name: agent.agent, root: agent.root, changes: agent.changes.map(({ before: _before, ...c }) => c), warnings: agent.warnings, ...(agent.launcher ? { launcher: { kind: agent.launcher.kind, note: agent.launcher.note } } : {}) } } : {}),
  };
}

/** What was created (or would be), and the merge driver's setup line for teammates. */
function reportCreated(ctx: Context, root: string, { created, dryRun, mergeDriver, mergeDriverSetup }: InitOutcome): void {
  const shown = displayPath(ctx.io.cwd, root);
  if (dryRun) {
    if (created.length) ctx.ui.info(`would create ${shown}`);
  } else if (created.length === 0) {
    ctx.ui.info(`${shown} is already set up; nothing changed`);
  } else {
    for (const item of created) ctx.ui.info(`created ${displayPath(ctx.io.cwd, join(root, item))}`);
  }
  if (mergeDriver) {
    ctx.ui.info(`registered the MEMORY.md merge driver in this clone's git config; each teammate runs once: ${mergeDriverSetup}`);
  }
}

/** The agent's files that changed (or would), the launcher, and what the agent needs next. */
function reportAgent(ctx: Context, agent: AgentOutcome, dryRun: boolean): void {
  const changes = agent.changes.filter((c) => c.action !== 'unchanged');
  ctx.ui.out(renderAgentChanges(changes, { dryRun, quiet: ctx.ui.quiet, chalk: ctx.ui.chalk, show: (file) => displayPath(ctx.io.cwd, join(agent.root, file)) }));
  if (agent.launcher && agent.launcher.kind !== 'missing') ctx.ui.info(agent.launcher.note);
  if (changes.some((c) => c.file === '.codex/config.toml')) ctx.ui.info('Codex reads .codex/config.toml once you trust the project (codex asks on its first start there); `codex mcp list` shows the server');
  if (changes.some((c) => c.parts.includes('enabledMcpjsonServers'))) {
    ctx.ui.info(`approved the memctx MCP server for you in ${displayPath(ctx.io.cwd, join(agent.root, '.claude/settings.local.json'))} (your own settings, not for committing; a teammate who clones runs \`memctx init --agent claude\` once, or approves memctx when Claude Code asks)`);
  }
}
