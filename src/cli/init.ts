import { Option, type Command } from 'commander';
import { EXIT_OK } from '../errors.js';
import type { Context } from './context.js';
import type { Runner } from './run.js';

interface InitFlags {
  agent?: 'claude' | 'codex' | 'cursor';
  dryRun?: boolean;
}

export function register(program: Command, run: Runner): void {
  program
    .command('init')
    .description('create .memory/ with MEMORY.md, templates/ and a .gitignore for .memctx/ (never overwrites); --agent wires an agent to it')
    .addOption(new Option('--agent <name>', "add a memory section to the agent's instructions (CLAUDE.md, AGENTS.md or .cursor/rules/memctx.mdc); for claude also the status line, hooks and MCP server in .claude/settings.json and .mcp.json").choices(['claude', 'codex', 'cursor']))
    .option('-n, --dry-run', 'show what would change; change nothing')
    .action(run(runInit));
}

async function runInit(ctx: Context, flags: InitFlags): Promise<number> {
  const { resolve, join } = await import('node:path');
  const { existsSync } = await import('node:fs');
  const { MEMORY_DIR_NAME } = await import('../store/find.js');
  const explicit = ctx.globals.dir ?? ctx.io.env.MEMCTX_DIR;
  const root = ctx.globals.claude ? ctx.memoryDir({ allowMissing: true }) : resolve(ctx.io.cwd, explicit ?? MEMORY_DIR_NAME);
  const { displayPath } = await import('./display.js');
  // Check the agent's files first, so a refusal there leaves everything as it was.
  const agentPlan = flags.agent ? await planAgentFor(ctx, flags.agent, root) : undefined;
  let created: string[] = [];
  if (!flags.dryRun) {
    const { initMemoryDir } = await import('../store/init.js');
    const { planIndex } = await import('../actions/reindex.js');
    created = await initMemoryDir(root, async () => (await planIndex(root)).text);
    if (agentPlan) await (await import('../hooks/agent.js')).applyAgentPlan(agentPlan);
  }
  const agentChanges = agentPlan?.changes.filter((c) => c.action !== 'unchanged') ?? [];
  for (const warning of agentPlan?.warnings ?? []) ctx.ui.warn(warning);
  if (ctx.ui.json) {
    ctx.ui.printJson({
      dir: root,
      created: flags.dryRun ? (existsSync(root) ? [] : ['.']) : created,
      ...(flags.dryRun ? { dryRun: true } : {}),
      ...(agentPlan ? { agent: { name: agentPlan.agent, root: agentPlan.root, changes: agentPlan.changes.map(({ before: _before, ...c }) => c), warnings: agentPlan.warnings } } : {}),
    });
    return EXIT_OK;
  }
  const shown = displayPath(ctx.io.cwd, root);
  if (flags.dryRun) {
    if (!existsSync(root)) ctx.ui.info(`would create ${shown}`);
  } else if (created.length === 0) {
    ctx.ui.info(`${shown} is already set up; nothing changed`);
  } else {
    for (const item of created) ctx.ui.info(`created ${displayPath(ctx.io.cwd, join(root, item))}`);
  }
  if (agentPlan) {
    const { renderAgentChanges } = await import('./ui/agent.js');
    ctx.ui.out(renderAgentChanges(agentChanges, { dryRun: Boolean(flags.dryRun), quiet: ctx.ui.quiet, chalk: ctx.ui.chalk, show: (file) => displayPath(ctx.io.cwd, join(agentPlan.root, file)) }));
  }
  return EXIT_OK;
}

async function planAgentFor(ctx: Context, agent: NonNullable<InitFlags['agent']>, memoryDir: string) {
  const { findRepository } = await import('../sources/repo.js');
  const { planAgent } = await import('../hooks/agent.js');
  const project = findRepository(ctx.io.cwd, ctx.io.cwd, ctx.io.env).root;
  return planAgent(agent, project, memoryDir);
}
