/** `memctx mv`: rename one memory file (never overwriting), stamp `updated`, and re-index. */
import { existsSync, statSync } from 'node:fs';
import { MemctxError } from '../../kernel/errors.js';
import { isoTimestamp } from '../../kernel/store/schema.js';
import { mixedEndings, readRawText, finishEdit, type RawText } from '../../kernel/store/edit.js';
import { resolveMemoryPath, isIndexPath } from '../../kernel/store/paths.js';
import { ALREADY_EXISTS, moveNoClobber } from '../../kernel/store/archive.js';
import { writeAndReindex } from '../../kernel/memindex/reindex.js';
import { MAX_FILE_BYTES } from '../../kernel/store/layout.js';
import { checkMemoryText, writeFileAtomic } from '../../kernel/store/write.js';

export interface MvOptions {
  root: string;
  /** The paths as typed, inside the memory directory. */
  from: string;
  to: string;
  dryRun?: boolean;
}

export interface MvDeps {
  now: () => Date;
  /** A problem that did not stop the command (a re-index that failed after the rename). */
  warn: (message: string) => void;
}

export interface MvResult {
  from: string;
  to: string;
  /** Set when nothing was renamed. */
  dryRun?: true;
  /** Why the file's mixed line endings were made one kind when `updated` was set. */
  mixedEndings?: string;
}

export async function mv(options: MvOptions, deps: MvDeps): Promise<MvResult> {
  const { root } = options;
  const from = resolveMemoryPath(root, options.from);
  const to = resolveMemoryPath(root, options.to, { renaming: from.rel });
  if (isIndexPath(from.rel) || isIndexPath(to.rel)) throw new MemctxError('refusing to move MEMORY.md or to overwrite it; it is the generated index');
  if (!existsSync(from.abs) || !statSync(from.abs).isFile()) throw new MemctxError(`no memory file ${from.rel}`, { hint: 'run `memctx ls` to see the files' });
  if (from.abs === to.abs) throw new MemctxError(`${from.rel} and ${to.rel} are the same file`);
  if (options.dryRun) return { from: from.rel, to: to.rel, dryRun: true };
  let mixed: RawText | undefined;
  await writeAndReindex(root, async () => {
    // One name at a time (link, then unlink): a run killed in between is finished by running it again.
    const why = moveNoClobber(root, from.abs, to.abs);
    if (why === ALREADY_EXISTS) throw new MemctxError(`${to.rel} already exists; mv never overwrites`, { hint: 'choose another name, or remove the other file first' });
    if (why) throw new MemctxError(why, { file: to.rel, hint: 'choose a path whose folders are not files' });
    mixed = await stampMoved(root, to, deps.now());
  }, deps.warn);
  return { from: from.rel, to: to.rel, ...(mixed ? { mixedEndings: mixedEndings(to.rel, mixed) } : {}) };
}

/**
 * After a move, set `updated` on the file at its new name. A file too large or not valid as a memory
 * file (or one that setting `updated` would take over the size limit) keeps its bytes. Returns the
 * text read when its line endings were mixed. Call under the lock (mv and the memory tool's rename).
 */
export async function stampMoved(root: string, to: { abs: string; rel: string }, now: Date): Promise<RawText | undefined> {
  const stat = statSync(to.abs);
  if (!stat.isFile() || stat.size > MAX_FILE_BYTES) return undefined;
  let edit: { read: RawText; text: string } | undefined;
  try {
    const read = readRawText(to.abs, root);
    const text = finishEdit(to.rel, read, stat, isoTimestamp(now));
    checkMemoryText(to.rel, text);
    edit = { read, text };
  } catch {
    return undefined; // keep the bytes
  }
  await writeFileAtomic(to.abs, edit.text, { inside: root });
  return edit.read.mixed ? edit.read : undefined;
}
