/** `memctx rm`: delete one memory file under the lock and re-index. */
import { lstatSync } from 'node:fs';
import { MemctxError } from '../../kernel/errors.js';
import { resolveMemoryPath, isIndexPath } from '../../kernel/store/paths.js';
import { removeMemoryFile } from '../../kernel/store/write.js';
import { writeAndReindex } from '../../kernel/memindex/reindex.js';

export interface RmOptions {
  root: string;
  /** The path as typed, inside the memory directory. */
  path: string;
  dryRun?: boolean;
}

export interface RmDeps {
  /** A problem that did not stop the command (a re-index that failed after the delete). */
  warn: (message: string) => void;
}

export interface RmResult {
  /** The deleted file, relative to the memory directory. */
  deleted: string;
  /** Set when nothing was deleted. */
  dryRun?: true;
}

export async function rm(options: RmOptions, deps: RmDeps): Promise<RmResult> {
  const { root } = options;
  const target = resolveMemoryPath(root, options.path);
  if (isIndexPath(target.rel)) throw new MemctxError('refusing to delete MEMORY.md, the generated index', { hint: 'delete memory files instead; the index follows' });
  const stat = (() => {
    try {
      return lstatSync(target.abs);
    } catch {
      throw new MemctxError(`no memory file ${target.rel}`, { hint: 'run `memctx ls` to see the files' });
    }
  })();
  if (!stat.isFile() && !stat.isSymbolicLink()) throw new MemctxError(`${target.rel} is not a file; rm deletes one memory file at a time`);
  if (options.dryRun) return { deleted: target.rel, dryRun: true };
  await writeAndReindex(root, async () => {
    removeMemoryFile(root, target.abs);
  }, deps.warn);
  return { deleted: target.rel };
}
