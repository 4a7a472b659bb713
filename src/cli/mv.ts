import type { Command } from 'commander';
import { EXIT_OK, MemctxError } from '../errors.js';
import { isoTimestamp } from '../store/schema.js';
import type { Context } from './context.js';
import type { Runner } from './run.js';
import type { RawText } from '../store/edit.js';

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
  const { readRawText, finishEdit, mixedEndings } = await import('../store/edit.js');
  const { ALREADY_EXISTS, moveNoClobber } = await import('../store/archive.js');
  const { MAX_FILE_BYTES } = await import('../store/scan.js');
  const { checkMemoryText, writeFileAtomic } = await import('../store/write.js');
  const { writeAndReindex } = await import('../actions/reindex.js');
  let mixed: RawText | undefined;
  await writeAndReindex(root, async () => {
    // One name at a time (link, then unlink): a run killed in between is finished by running it again.
    const why = moveNoClobber(root, from.abs, to.abs);
    if (why === ALREADY_EXISTS) throw new MemctxError(`${to.rel} already exists; mv never overwrites`, { hint: 'choose another name, or remove the other file first' });
    if (why) throw new MemctxError(why, { file: to.rel, hint: 'choose a path whose folders are not files' });
    // Then `updated` is set; a file too large or not valid as a memory file (or one that setting
    // `updated` would take over the size limit) keeps its bytes.
    const stat = statSync(to.abs);
    if (stat.isFile() && stat.size <= MAX_FILE_BYTES) {
      let edit: { read: RawText; text: string } | undefined;
      try {
        const read = readRawText(to.abs);
        const text = finishEdit(to.rel, read, stat, isoTimestamp(ctx.io.now()));
        checkMemoryText(to.rel, text);
        edit = { read, text };
      } catch {
        // keep the bytes
      }
      if (edit) {
        await writeFileAtomic(to.abs, edit.text, { inside: root });
        if (edit.read.mixed) mixed = edit.read;
      }
    }
  }, (message) => ctx.ui.warn(message));
  if (mixed) ctx.ui.warn(mixedEndings(to.rel, mixed));
  if (ctx.ui.json) ctx.ui.printJson({ from: from.rel, to: to.rel });
  else ctx.ui.info(`renamed ${from.rel} to ${to.rel}`);
  return EXIT_OK;
}
