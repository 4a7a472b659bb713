import type { Command } from 'commander';
import { EXIT_OK } from '../../kernel/errors.js';
import type { Context } from '../../kernel/cli/context.js';
import type { Runner } from '../../kernel/cli/run.js';
import { show } from './show.js';

export function register(program: Command, run: Runner): void {
  program
    .command('show')
    .description('print a memory file (with --json: its parsed frontmatter and body)')
    .argument('<path>', 'path inside the memory directory')
    .action(run(runShow));
}

async function runShow(ctx: Context, input: string): Promise<number> {
  const result = await show({ root: ctx.memoryDir(), path: input, withText: !ctx.ui.json }, { now: ctx.io.now });
  if (result.index) {
    if (ctx.ui.json) ctx.ui.printJson({ path: result.path, text: result.text });
    else ctx.ui.memoryText(result.text);
    return EXIT_OK;
  }
  if (ctx.ui.json) ctx.ui.printJson(result.file);
  else ctx.ui.memoryText(result.text ?? '');
  for (const warning of result.warnings) ctx.ui.warn(warning);
  if (result.accessError) ctx.ui.warn(`could not record the access (${result.accessError})`);
  return EXIT_OK;
}
