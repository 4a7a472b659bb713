import type { Command } from 'commander';
import { EXIT_OK, MemctxError } from '../errors.js';
import { isoTimestamp } from '../store/schema.js';
import type { Context } from './context.js';
import type { Runner } from './run.js';
import type { RawText } from '../store/edit.js';

interface EditFlags {
  old: string;
  new: string;
}

export function register(program: Command, run: Runner): void {
  program
    .command('edit')
    .description('replace exactly one occurrence of --old with --new in a memory file')
    .argument('<path>', 'path inside the memory directory')
    .requiredOption('--old <text>', 'the exact text to replace; it must occur exactly once')
    .requiredOption('--new <text>', 'the replacement text')
    .action(run(runEdit));
}

async function runEdit(ctx: Context, input: string, flags: EditFlags): Promise<number> {
  const root = ctx.memoryDir();
  const { resolveMemoryPath, isIndexPath } = await import('../store/paths.js');
  const target = resolveMemoryPath(root, input);
  if (isIndexPath(target.rel)) throw new MemctxError('MEMORY.md is generated; edit the text outside its markers by hand, or edit the memory files', { file: target.rel });
  if (flags.old === '') throw new MemctxError('--old must not be empty');
  const { existsSync, statSync } = await import('node:fs');
  const { readRawText, countOccurrences, finishEdit, mixedEndings } = await import('../store/edit.js');
  const { ParseFailure } = await import('../store/parse.js');
  const { MAX_FILE_BYTES } = await import('../store/scan.js');
  const { DecodeFailure } = await import('../store/decode.js');
  const { writeMemoryFile } = await import('../store/write.js');
  const { writeAndReindex } = await import('../actions/reindex.js');
  let mixed: RawText | undefined;
  await writeAndReindex(root, async () => {
    if (!existsSync(target.abs)) throw new MemctxError(`no memory file ${target.rel}`, { hint: 'run `memctx ls` to see the files, or `memctx add` to create it' });
    const stat = statSync(target.abs);
    if (!stat.isFile()) throw new MemctxError(`${target.rel} is not a file`, { hint: 'edit one memory file at a time' });
    if (stat.size > MAX_FILE_BYTES) {
      throw new MemctxError(`file is ${stat.size} bytes, over the ${MAX_FILE_BYTES}-byte limit for a memory file; not edited`, { file: target.rel, hint: 'split it into smaller memory files or move it out of the memory directory' });
    }
    try {
      const raw = readRawText(target.abs);
      const old = flags.old.replace(/\r\n/g, '\n');
      const count = countOccurrences(raw.text, old);
      if (count !== 1) {
        throw new MemctxError(
          count === 0 ? `--old text not found in ${target.rel}` : `--old text occurs ${count} times in ${target.rel}; it must occur exactly once`,
          { file: target.rel, hint: count === 0 ? 'copy the text exactly as it is in the file (`memctx show`)' : 'include more surrounding text so it matches once' },
        );
      }
      const edited = { ...raw, text: raw.text.replace(old, () => flags.new.replace(/\r\n/g, '\n')) };
      await writeMemoryFile(target.abs, target.rel, finishEdit(target.rel, edited, stat, isoTimestamp(ctx.io.now())), { inside: root });
      if (raw.mixed) mixed = raw;
    } catch (err) {
      if (err instanceof ParseFailure) throw new MemctxError(`the edit would leave an invalid memory file: ${err.message}; nothing written`, { file: target.rel, line: err.line, hint: err.hint });
      if (err instanceof DecodeFailure) throw new MemctxError(err.message, { file: target.rel, line: err.line, hint: err.hint });
      throw err;
    }
  }, (message) => ctx.ui.warn(message));
  if (mixed) ctx.ui.warn(mixedEndings(target.rel, mixed));
  if (ctx.ui.json) ctx.ui.printJson({ edited: target.rel });
  else ctx.ui.info(`edited ${target.rel}`);
  return EXIT_OK;
}
