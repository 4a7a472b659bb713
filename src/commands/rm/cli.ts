import type { Command } from 'commander';
import { EXIT_OK } from '../../kernel/errors.js';
import type { Context } from '../../kernel/cli/context.js';
import type { Runner } from '../../kernel/cli/run.js';
import { rm } from './rm.js';

export function register(program: Command, run: Runner): void {
  program
    .command('rm')
    .description('delete a memory file and re-index')
    .argument('<path>', 'path inside the memory directory')
    .option('-n, --dry-run', 'say what would be deleted; change nothing')
    .action(run(runRm));
}

async function runRm(ctx: Context, input: string, flags: { dryRun?: boolean }): Promise<number> {
  const result = await rm({ root: ctx.memoryDir(), path: input, dryRun: flags.dryRun }, { warn: (message) => ctx.ui.warn(message) });
  if (ctx.ui.json) ctx.ui.printJson(result);
  else ctx.ui.info(`${result.dryRun ? 'would delete' : 'deleted'} ${result.deleted}`);
  return EXIT_OK;
}
