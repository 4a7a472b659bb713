import type { Command } from 'commander';
import { EXIT_OK, MemctxError } from '../errors.js';
import type { Context } from './context.js';
import type { Runner } from './run.js';

export function register(program: Command, run: Runner): void {
  program
    .command('rm')
    .description('delete a memory file and re-index')
    .argument('<path>', 'path inside the memory directory')
    .option('-n, --dry-run', 'say what would be deleted; change nothing')
    .action(run(runRm));
}

async function runRm(ctx: Context, input: string, flags: { dryRun?: boolean }): Promise<number> {
  const root = ctx.memoryDir();
  const { resolveMemoryPath, isIndexPath } = await import('../store/paths.js');
  const target = resolveMemoryPath(root, input);
  if (isIndexPath(target.rel)) throw new MemctxError('refusing to delete MEMORY.md, the generated index', { hint: 'delete memory files instead; the index follows' });
  const { lstatSync } = await import('node:fs');
  const stat = (() => {
    try {
      return lstatSync(target.abs);
    } catch {
      throw new MemctxError(`no memory file ${target.rel}`, { hint: 'run `memctx ls` to see the files' });
    }
  })();
  if (!stat.isFile() && !stat.isSymbolicLink()) throw new MemctxError(`${target.rel} is not a file; rm deletes one memory file at a time`);
  if (flags.dryRun) {
    if (ctx.ui.json) ctx.ui.printJson({ deleted: target.rel, dryRun: true });
    else ctx.ui.info(`would delete ${target.rel}`);
    return EXIT_OK;
  }
  const { removeMemoryFile } = await import('../store/write.js');
  const { writeAndReindex } = await import('../actions/reindex.js');
  await writeAndReindex(root, async () => {
    removeMemoryFile(root, target.abs);
  }, (message) => ctx.ui.warn(message));
  if (ctx.ui.json) ctx.ui.printJson({ deleted: target.rel });
  else ctx.ui.info(`deleted ${target.rel}`);
  return EXIT_OK;
}
