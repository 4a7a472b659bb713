import type { Command } from 'commander';
import { EXIT_OK } from '../../kernel/errors.js';
import { memoryDirIsExplicit, type Context } from '../../kernel/cli/context.js';
import type { Runner } from '../../kernel/cli/run.js';
import { hookInstall, hookUninstall, type HookResult } from './hook.js';
import { walkUpForMemoryDir } from '../../kernel/store/find.js';

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
    .option('-n, --dry-run', 'print what would change; change nothing')
    .action(run(runInstall));
  hook
    .command('uninstall')
    .description("remove memctx's pre-commit hook and put back exactly the hook it replaced")
    .option('-n, --dry-run', 'print what would change; change nothing')
    .action(run(runUninstall));
}

async function runInstall(ctx: Context, flags: HookFlags): Promise<number> {
  const explicit = memoryDirIsExplicit(ctx);
  const memoryDir = explicit ? ctx.memoryDir({ allowMissing: true }) : walkUpForMemoryDir(ctx.io.cwd);
  return render(ctx, await hookInstall({ memoryDir, explicit, dryRun: Boolean(flags.dryRun) }, { cwd: ctx.io.cwd, env: ctx.io.env }));
}

async function runUninstall(ctx: Context, flags: HookFlags): Promise<number> {
  return render(ctx, await hookUninstall({ dryRun: Boolean(flags.dryRun) }, { cwd: ctx.io.cwd, env: ctx.io.env }));
}

type Action = import('./install.js').HookAction;

const SUMMARY: Record<HookResult['status'], [done: string, dryRun: string]> = {
  install: ['installed the memctx pre-commit hook', 'would install the memctx pre-commit hook'],
  update: ['updated the memctx pre-commit hook', 'would update the memctx pre-commit hook'],
  'already-installed': ['the memctx pre-commit hook is already installed; nothing changed', 'the memctx pre-commit hook is already installed; nothing would change'],
  uninstall: ['removed the memctx pre-commit hook', 'would remove the memctx pre-commit hook'],
  'not-installed': ['the memctx pre-commit hook is not installed; nothing to remove', 'the memctx pre-commit hook is not installed; nothing to remove'],
};

function render(ctx: Context, result: HookResult): number {
  const { dryRun } = result;
  for (const warning of result.warnings) ctx.ui.warn(warning);
  if (ctx.ui.json) {
    ctx.ui.printJson({
      status: result.status,
      dryRun,
      hook: result.hook,
      hooksDir: result.hooksDir,
      actions: result.actions.map(({ op, ...rest }) => ({ op, ...('text' in rest ? { path: rest.path } : rest) })),
      warnings: result.warnings,
      ...(result.mergeDriver ? { mergeDriver: result.mergeDriver } : {}),
    });
    return EXIT_OK;
  }
  const summary = SUMMARY[result.status][dryRun ? 1 : 0];
  ctx.ui.info(`${summary}${result.status === 'not-installed' ? '' : `: ${result.hook}`}`);
  for (const action of result.actions) ctx.ui.info(`  ${describe(action, dryRun)}`);
  if (result.mergeDriver) {
    const { setup, state } = result.mergeDriver;
    const done = { set: 'set the MEMORY.md merge driver', 'already-set': 'the MEMORY.md merge driver is already set', 'would-set': 'would set the MEMORY.md merge driver' }[state];
    ctx.ui.info(`${done}; teammates run once: ${setup}`);
  }
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
