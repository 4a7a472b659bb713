import type { Command } from 'commander';
import { EXIT_OK, MemctxError } from '../store/errors.js';
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
  const { existsSync, statSync, unlinkSync } = await import('node:fs');
  if (!existsSync(from.abs) || !statSync(from.abs).isFile()) throw new MemctxError(`no memory file ${from.rel}`, { hint: 'run `memctx ls` to see the files' });
  if (from.abs === to.abs) throw new MemctxError(`${from.rel} and ${to.rel} are the same file`);
  if (flags.dryRun) {
    if (ctx.ui.json) ctx.ui.printJson({ from: from.rel, to: to.rel, dryRun: true });
    else ctx.ui.info(`would rename ${from.rel} to ${to.rel}`);
    return EXIT_OK;
  }
  const { readRawText, finishEdit, mixedEndings } = await import('../store/edit.js');
  const { readRegularFile } = await import('../store/read-file.js');
  const { MAX_FILE_BYTES } = await import('../store/scan.js');
  const { checkMemoryText, writeFileAtomic } = await import('../store/write.js');
  const { writeAndReindex } = await import('./reindex.js');
  let mixed: RawText | undefined;
  await writeAndReindex(root, async () => {
    if (entryExists(to.abs)) throw new MemctxError(`${to.rel} already exists; mv never overwrites`, { hint: 'choose another name, or remove the other file first' });
    // A file too large or not valid as a memory file (or one that setting `updated` would take
    // over the size limit) is moved with its bytes untouched.
    let text: string | Buffer = readRegularFile(from.abs, { name: from.rel, what: 'memory file' });
    let raw: RawText | undefined;
    const stat = statSync(from.abs);
    if (stat.size <= MAX_FILE_BYTES) {
      try {
        const read = readRawText(from.abs);
        const edited = finishEdit(to.rel, read, stat, isoTimestamp(ctx.io.now()));
        checkMemoryText(to.rel, edited);
        text = edited;
        raw = read;
      } catch {
        // keep the bytes
      }
    }
    await writeFileAtomic(to.abs, text);
    if (raw?.mixed) mixed = raw;
    unlinkSync(from.abs);
  }, (message) => ctx.ui.warn(message));
  if (mixed) ctx.ui.warn(mixedEndings(to.rel, mixed));
  if (ctx.ui.json) ctx.ui.printJson({ from: from.rel, to: to.rel });
  else ctx.ui.info(`renamed ${from.rel} to ${to.rel}`);
  return EXIT_OK;
}
