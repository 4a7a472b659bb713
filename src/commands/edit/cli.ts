import type { Command } from 'commander';
import { EXIT_OK } from '../../kernel/errors.js';
import type { Context } from '../../kernel/cli/context.js';
import type { Runner } from '../../kernel/cli/run.js';
import { edit } from './edit.js';
import { lintConfigOnce } from '../../kernel/cli/lint-setup.js';

interface EditFlags {
  old: string;
  new: string;
  force?: boolean;
}

export function register(program: Command, run: Runner): void {
  program
    .command('edit')
    .description('replace exactly one occurrence of --old with --new in a memory file')
    .argument('<path>', 'path inside the memory directory')
    .requiredOption('--old <text>', 'the exact text to replace; it must occur exactly once')
    .requiredOption('--new <text>', 'the replacement text')
    .option('--force', 'keep the edit even when it makes the file nearly duplicate another memory')
    .action(run(runEdit));
}

async function runEdit(ctx: Context, input: string, flags: EditFlags): Promise<number> {
  const { edited, mixedEndings } = await edit({ root: ctx.memoryDir(), path: input, old: flags.old, new: flags.new, force: flags.force }, { now: ctx.io.now, warn: (message) => ctx.ui.warn(message), lintConfig: lintConfigOnce(ctx) });
  if (mixedEndings) ctx.ui.warn(mixedEndings);
  if (ctx.ui.json) ctx.ui.printJson({ edited });
  else ctx.ui.info(`edited ${edited}`);
  return EXIT_OK;
}
