import type { Command } from 'commander';
import { EXIT_OK } from '../errors.js';
import type { Context } from './context.js';
import type { Runner } from './run.js';

interface HookFlags {
  dryRun?: boolean;
}

export function register(program: Command, run: Runner): void {
  const hook = program
    .command('hook')
    .description('install or remove the git pre-commit hook that keeps MEMORY.md in step with the memory files');
  hook
    .command('install')
    .description('install the pre-commit hook where git looks for it (core.hooksPath and worktrees respected); an existing hook is kept and still runs')
    .option('--dry-run', 'print what would change; change nothing')
    .action(run(runInstall));
  hook
    .command('uninstall')
    .description("remove memctx's pre-commit hook and put back exactly the hook it replaced")
    .option('--dry-run', 'print what would change; change nothing')
    .action(run(runUninstall));
}

async function runInstall(ctx: Context, flags: HookFlags): Promise<number> {
  const { planInstall } = await import('../hooks/install.js');
  const { memoryDirIsExplicit } = await import('./staged.js');
  const { walkUpForMemoryDir } = await import('../store/find.js');
  const explicit = memoryDirIsExplicit(ctx);
  const memoryDir = explicit ? ctx.memoryDir({ allowMissing: true }) : walkUpForMemoryDir(ctx.io.cwd);
  const plan = planInstall({ cwd: ctx.io.cwd, env: ctx.io.env, memoryDir, explicit });
  return carryOut(ctx, plan, Boolean(flags.dryRun));
}

async function runUninstall(ctx: Context, flags: HookFlags): Promise<number> {
  const { planUninstall } = await import('../hooks/install.js');
  return carryOut(ctx, planUninstall({ cwd: ctx.io.cwd, env: ctx.io.env }), Boolean(flags.dryRun));
}

type Plan = import('../hooks/install.js').HookPlan;
type Action = import('../hooks/install.js').HookAction;

const SUMMARY: Record<Plan['status'], [done: string, dryRun: string]> = {
  install: ['installed the memctx pre-commit hook', 'would install the memctx pre-commit hook'],
  update: ['updated the memctx pre-commit hook', 'would update the memctx pre-commit hook'],
  'already-installed': ['the memctx pre-commit hook is already installed; nothing changed', 'the memctx pre-commit hook is already installed; nothing would change'],
  uninstall: ['removed the memctx pre-commit hook', 'would remove the memctx pre-commit hook'],
  'not-installed': ['the memctx pre-commit hook is not installed; nothing to remove', 'the memctx pre-commit hook is not installed; nothing to remove'],
};

async function carryOut(ctx: Context, plan: Plan, dryRun: boolean): Promise<number> {
  const { applyPlan } = await import('../hooks/install.js');
  for (const warning of plan.warnings) ctx.ui.warn(warning);
  if (!dryRun) await applyPlan(plan);
  if (ctx.ui.json) {
    ctx.ui.printJson({
      status: plan.status,
      dryRun,
      hook: plan.location.hookPath,
      hooksDir: plan.location.hooksDir,
      actions: plan.actions.map(({ op, ...rest }) => ({ op, ...('text' in rest ? { path: rest.path } : rest) })),
      warnings: plan.warnings,
    });
    return EXIT_OK;
  }
  const summary = SUMMARY[plan.status][dryRun ? 1 : 0];
  ctx.ui.info(`${summary}${plan.status === 'not-installed' ? '' : `: ${plan.location.hookPath}`}`);
  for (const action of plan.actions) ctx.ui.info(`  ${describe(action, dryRun)}`);
  return EXIT_OK;
}

function describe(action: Action, dryRun: boolean): string {
  const verb = (done: string, would: string) => (dryRun ? `would ${would}` : done);
  switch (action.op) {
    case 'mkdir':
      return `${verb('created', 'create')} ${action.path}/`;
    case 'save':
      return `${verb('kept', 'keep')} the existing hook as ${action.to}; it still runs first`;
    case 'write':
      return `${verb('wrote', 'write')} ${action.path}`;
    case 'remove':
      return `${verb('removed', 'remove')} ${action.path}`;
    case 'restore':
      return `${verb('put back', 'put back')} the earlier hook from ${action.from}`;
    case 'rmdir':
      return `${verb('removed', 'remove')} ${action.path}/, which memctx had created and is now empty`;
  }
}
