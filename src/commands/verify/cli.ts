import type { Command } from 'commander';
import { EXIT_OK, EXIT_USAGE } from '../../kernel/errors.js';
import type { Context } from '../../kernel/cli/context.js';
import type { Runner } from '../../kernel/cli/run.js';
import { verify } from './verify.js';

export function register(program: Command, run: Runner): void {
  program
    .command('verify')
    .description('record that memories still hold: `verified:` set to the HEAD commit, after checking them against the code')
    .argument('<path...>', 'memory files, inside the memory directory')
    .action(run(runVerify));
}

async function runVerify(ctx: Context, paths: string[]): Promise<number> {
  const result = await verify({ root: ctx.memoryDir(), paths }, { env: ctx.io.env });
  for (const p of result.problems) ctx.ui.problem({ path: p.file, message: `${p.message}; not verified`, hint: p.hint });
  if (ctx.ui.json) ctx.ui.printJson(result);
  else for (const file of result.verified) ctx.ui.info(`verified ${file} at ${result.commit.slice(0, 12)}`);
  return result.problems.length ? EXIT_USAGE : EXIT_OK;
}
