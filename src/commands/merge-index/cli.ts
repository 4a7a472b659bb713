/** `memctx merge-index BASE OURS THEIRS [PATH]`: git's merge driver for MEMORY.md (src/commands/merge-index/merge-index.ts). */
import type { Command } from 'commander';
import { EXIT_OK, EXIT_PROBLEMS } from '../../kernel/errors.js';
import type { Context } from '../../kernel/cli/context.js';
import type { Runner } from '../../kernel/cli/run.js';
import { mergeIndex } from './merge-index.js';

export function register(program: Command, run: Runner): void {
  program
    .command('merge-index')
    .description('git merge driver for MEMORY.md: keep both sides\' hand-written text, rebuild the generated block (registered by `memctx init`)')
    .argument('<base>', 'the common ancestor\'s MEMORY.md (git\'s %O)')
    .argument('<ours>', 'our MEMORY.md, replaced by the merged text (git\'s %A)')
    .argument('<theirs>', 'their MEMORY.md (git\'s %B)')
    .argument('[path]', 'the file\'s path in the repository, for messages (git\'s %P)')
    .action(run(runMergeIndex));
}

async function runMergeIndex(ctx: Context, base: string, ours: string, theirs: string, path?: string): Promise<number> {
  const result = await mergeIndex({ cwd: ctx.io.cwd, base, ours, theirs, path });
  const lines = result.conflictMarkers.join(', ');
  if (ctx.ui.json) ctx.ui.printJson(result);
  else if (result.refused) ctx.ui.warn(`${result.file}: not merged: ${result.refused}; both versions are left whole between conflict markers (lines ${lines}): keep what each side adds, remove the markers, then git add`);
  // Both sides changed the same hand-written lines, or a side carried markers in.
  else if (result.conflictMarkers.length) ctx.ui.warn(`${result.file} merged, but with conflicts: resolve the git conflict markers on lines ${lines} by hand, then git add`);
  // Non-zero tells git the file is still conflicted.
  return result.conflictMarkers.length ? EXIT_PROBLEMS : EXIT_OK;
}
