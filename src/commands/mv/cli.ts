import type { Command } from 'commander';
import { EXIT_OK } from '../../kernel/errors.js';
import type { Context } from '../../kernel/cli/context.js';
import type { Runner } from '../../kernel/cli/run.js';
import { mv } from './mv.js';

export function register(program: Command, run: Runner): void {
  program
    .command('mv')
    .description('rename a memory file (never overwrites) and re-index')
    .argument('<old>', 'current path inside the memory directory')
    .argument('<new>', 'new path inside the memory directory')
    .option('-n, --dry-run', 'say what would be renamed; change nothing')
    .action(run(runMv));
}

async function runMv(ctx: Context, oldInput: string, newInput: string, flags: { dryRun?: boolean }): Promise<number> {
  const { from, to, dryRun, mixedEndings } = await mv(
    { root: ctx.memoryDir(), from: oldInput, to: newInput, dryRun: flags.dryRun },
    { now: ctx.io.now, warn: (message) => ctx.ui.warn(message) },
  );
  if (mixedEndings) ctx.ui.warn(mixedEndings);
  if (ctx.ui.json) ctx.ui.printJson(dryRun ? { from, to, dryRun } : { from, to });
  else ctx.ui.info(`${dryRun ? 'would rename' : 'renamed'} ${from} to ${to}`);
  return EXIT_OK;
}
