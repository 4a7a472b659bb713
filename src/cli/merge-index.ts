/** `memctx merge-index BASE OURS THEIRS`: git's merge driver for MEMORY.md (src/actions/merge-index.ts). */
import type { Command } from 'commander';
import { EXIT_OK, EXIT_PROBLEMS } from '../errors.js';
import type { Context } from './context.js';
import type { Runner } from './run.js';
import { mergeIndex } from '../actions/merge-index.js';

export function register(program: Command, run: Runner): void {
  program
    .command('merge-index')
    .description('git merge driver for MEMORY.md: keep both sides\' hand-written text, rebuild the generated block (registered by `memctx init`)')
    .argument('<base>', 'the common ancestor\'s MEMORY.md (git\'s %O)')
    .argument('<ours>', 'our MEMORY.md, replaced by the merged text (git\'s %A)')
    .argument('<theirs>', 'their MEMORY.md (git\'s %B)')
    .action(run(runMergeIndex));
}

async function runMergeIndex(ctx: Context, base: string, ours: string, theirs: string): Promise<number> {
  const result = await mergeIndex({ cwd: ctx.io.cwd, base, ours, theirs });
  if (ctx.ui.json) ctx.ui.printJson(result);
  // A side that carried conflict markers in: git is told the file is still conflicted.
  else if (result.conflictMarkers.length) ctx.ui.warn(`MEMORY.md merged, but git conflict markers remain on lines ${result.conflictMarkers.join(', ')}: resolve them by hand`);
  // Non-zero tells git the file is still conflicted.
  return result.conflictMarkers.length ? EXIT_PROBLEMS : EXIT_OK;
}
