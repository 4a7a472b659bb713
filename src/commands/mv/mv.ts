/** `memctx mv`: rename one memory file (never overwriting), stamp `updated`, and re-index. */
import { existsSync, statSync } from 'node:fs';
import { MemctxError } from '../../kernel/errors.js';
import { mixedEndings, stampMoved, type RawText } from '../../kernel/store/edit.js';
import { resolveMemoryPath, isIndexPath } from '../../kernel/store/paths.js';
import { ALREADY_EXISTS, moveNoClobber } from '../../kernel/store/archive.js';
import { writeAndReindex } from '../../kernel/memindex/reindex.js';

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

