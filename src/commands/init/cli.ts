import { Option, type Command } from 'commander';
import { EXIT_OK, MemctxError } from '../../kernel/errors.js';
import type { Context } from '../../kernel/cli/context.js';
import type { Runner } from '../../kernel/cli/run.js';
import { displayPath } from '../../kernel/store/paths.js';
import { init } from './init.js';
import { renderAgentChanges } from './report.js';
import { join } from 'node:path';

interface InitFlags {
  agent?: 'claude' | 'codex' | 'cursor';
  dryRun?: boolean;
  userConfig?: boolean;
}

export function register(program: Command, run: Runner): void {
  program
    .command('init')
    .description('create .memory/ with MEMORY.md, templates/ and a .gitignore for .memctx/ (never overwrites); --agent wires an agent to it')
    .addOption(new Option('--agent <name>', "add a memory section to the agent's instructions (CLAUDE.md, AGENTS.md or .cursor/rules/memctx.mdc); for claude also the status line, hooks and MCP server in .claude/settings.json and .mcp.json, approved in .claude/settings.local.json; the MCP server for codex in .codex/config.toml, for cursor in .cursor/mcp.json").choices(['claude', 'codex', 'cursor']))
    .option('--user-config', "codex: put the MCP server in your own config.toml ($CODEX_HOME or ~/.codex) instead of the project's .codex/config.toml")
    .option('-n, --dry-run', 'show what would change; change nothing')
    .action(run(runInit));
}

// eslint-disable-next-line complexity -- init's flags (--agent, --user-config, --dry-run, --dir) and what already exists each add one independent step
async function runInit(ctx: Context, flags: InitFlags): Promise<number> {
  // --agent writes hooks and an MCP server, which use only a memory directory inside the project.
  const root = ctx.memoryDir({ allowMissing: true, here: true, confined: flags.agent !== undefined });
  if (flags.userConfig && flags.agent !== 'codex') throw new MemctxError('--user-config is for --agent codex only', { hint: 'add --agent codex, or leave --user-config out' });
  const { created, dryRun, agent, mergeDriver, mergeDriverSetup } = await init({ root, agent: flags.agent, dryRun: flags.dryRun, userConfig: flags.userConfig }, { cwd: ctx.io.cwd, env: ctx.io.env, home: ctx.io.home });
  for (const warning of agent?.warnings ?? []) ctx.ui.warn(warning);
  if (agent?.launcher?.kind === 'missing') ctx.ui.warn(agent.launcher.note);
  if (ctx.ui.json) {
    ctx.ui.printJson({
      dir: root,
      created,
      ...(dryRun ? { dryRun: true } : {}),
      ...(mergeDriver ? { mergeDriver: true } : {}),
      ...(agent ? { agent: { name: agent.agent, root: agent.root, changes: agent.changes.map(({ before: _before, ...c }) => c), warnings: agent.warnings, ...(agent.launcher ? { launcher: { kind: agent.launcher.kind, note: agent.launcher.note } } : {}) } } : {}),
    });
    return EXIT_OK;
  }
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
  if (agent) {
    const changes = agent.changes.filter((c) => c.action !== 'unchanged');
    ctx.ui.out(renderAgentChanges(changes, { dryRun, quiet: ctx.ui.quiet, chalk: ctx.ui.chalk, show: (file) => displayPath(ctx.io.cwd, join(agent.root, file)) }));
    if (agent.launcher && agent.launcher.kind !== 'missing') ctx.ui.info(agent.launcher.note);
    if (changes.some((c) => c.file === '.codex/config.toml')) ctx.ui.info('Codex reads .codex/config.toml once you trust the project (codex asks on its first start there); `codex mcp list` shows the server');
    if (changes.some((c) => c.parts.includes('enabledMcpjsonServers'))) {
      ctx.ui.info(`approved the memctx MCP server for you in ${displayPath(ctx.io.cwd, join(agent.root, '.claude/settings.local.json'))} (your own settings, not for committing; a teammate who clones runs \`memctx init --agent claude\` once, or approves memctx when Claude Code asks)`);
    }
  }
  return EXIT_OK;
}
