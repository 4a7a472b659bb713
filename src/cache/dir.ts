import { lstatSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CACHE_DIR } from '../store/layout.js';

/**
 * The memory directory's cache folder (.memctx/), created when missing; undefined when it is a
 * symbolic link or cannot be made. Caches are optional: callers skip writing rather than fail.
 */
export function cacheDir(root: string): string | undefined {
  const dir = join(root, CACHE_DIR);
  try {
    const stat = lstatSync(dir, { throwIfNoEntry: false });
    if (stat?.isSymbolicLink()) return undefined;
    if (!stat) mkdirSync(dir, { recursive: true });
    else if (!stat.isDirectory()) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}
