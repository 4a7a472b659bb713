import type { Command } from 'commander';
import { EXIT_OK, MemctxError } from '../store/errors.js';
import { isoTimestamp } from '../store/schema.js';
import type { Context } from './context.js';
import type { Runner } from './run.js';

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
  const root = ctx.memoryDir();
  const { resolveMemoryPath, isIndexPath, entryExists } = await import('../store/paths.js');
  const from = resolveMemoryPath(root, oldInput);
  const to = resolveMemoryPath(root, newInput);
  if (isIndexPath(from.rel) || isIndexPath(to.rel)) throw new MemctxError('refusing to move MEMORY.md or to overwrite it; it is the generated index');
  const { existsSync, statSync } = await import('node:fs');
  if (!existsSync(from.abs) || !statSync(from.abs).isFile()) throw new MemctxError(`no memory file ${from.rel}`, { hint: 'run `memctx ls` to see the files' });
  if (from.abs === to.abs) throw new MemctxError(`${from.rel} and ${to.rel} are the same file`);
  if (flags.dryRun) {
    if (ctx.ui.json) ctx.ui.printJson({ from: from.rel, to: to.rel, dryRun: true });
    else ctx.ui.info(`would rename ${from.rel} to ${to.rel}`);
    return EXIT_OK;
  }
  const { readRawText, finishEdit } = await import('../store/edit.js');
  const { moveNoClobber } = await import('../store/archive.js');
  const { MAX_FILE_BYTES } = await import('../store/scan.js');
  const { writeFileAtomic } = await import('../store/write.js');
  const { writeAndReindex } = await import('./reindex.js');
  await writeAndReindex(root, async () => {
    // One name at a time (link, then unlink): a run killed in between is finished by running it again.
    const why = moveNoClobber(root, from.abs, to.abs);
    if (why) throw new MemctxError(`${to.rel}: ${why}; mv never overwrites`, { hint: 'choose another name, or remove the other file first' });
    // Then `updated` is set; a file too large or not valid as a memory file keeps its bytes.
    const stat = statSync(to.abs);
    if (stat.isFile() && stat.size <= MAX_FILE_BYTES) {
      let text: string | undefined;
      try {
        text = finishEdit(to.rel, readRawText(to.abs), stat, isoTimestamp(ctx.io.now()));
      } catch {
        // keep the bytes
      }
      if (text !== undefined) await writeFileAtomic(to.abs, text, { inside: root });
    }
  }, (message) => ctx.ui.warn(message));
  if (ctx.ui.json) ctx.ui.printJson({ from: from.rel, to: to.rel });
  else ctx.ui.info(`renamed ${from.rel} to ${to.rel}`);
  return EXIT_OK;
}
