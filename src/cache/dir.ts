import { lstatSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CACHE_DIR, INDEX_FILE } from '../store/layout.js';

/**
 * The memory directory's cache folder (.memctx/); undefined when it is a symbolic link or cannot be
 * made. It is created only beside a MEMORY.md: a read-only command pointed at any other folder
 * (`--dir /`) leaves no trace there. Caches are optional: callers skip writing rather than fail.
 */
export function cacheDir(root: string): string | undefined {
  const dir = join(root, CACHE_DIR);
  try {
    const stat = lstatSync(dir, { throwIfNoEntry: false });
    if (stat?.isSymbolicLink()) return undefined;
    if (!stat) {
      if (!lstatSync(join(root, INDEX_FILE), { throwIfNoEntry: false })?.isFile()) return undefined;
      mkdirSync(dir);
    }
    else if (!stat.isDirectory()) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}
