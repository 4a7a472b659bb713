import fg from 'fast-glob';
import { ARCHIVE_DIR, CACHE_DIR, INDEX_FILE, TEMPLATES_DIR } from './layout.js';

/** Listing memory files: fast-glob only, so callers that never parse (warm caches) stay light. */
export interface ListOptions {
  includeArchive?: boolean;
}

export interface Entry {
  path: string;
  symlink: boolean;
}

/** The memory files under root, sorted byte-wise; symlinks are listed (not followed) and flagged. */
export function listEntries(root: string, options: ListOptions = {}): Entry[] {
  const ignore = [`${CACHE_DIR}/**`, `${TEMPLATES_DIR}/**`, INDEX_FILE];
  if (!options.includeArchive) ignore.push(`${ARCHIVE_DIR}/**`);
  // Symlinks are listed but not followed: readMemoryFile refuses those that lead outside root.
  const entries = fg.sync('**/*.md', { cwd: root, ignore, dot: false, onlyFiles: false, followSymbolicLinks: false, caseSensitiveMatch: false, objectMode: true });
  return entries
    .filter((e) => e.dirent.isFile() || e.dirent.isSymbolicLink())
    .map((e) => ({ path: e.path, symlink: e.dirent.isSymbolicLink() }))
    .sort((a, b) => comparePaths(a.path, b.path));
}

/** Relative paths of the memory files under root: `.md` only, no dot-files, no cache, archive or templates. */
export function listMemoryPaths(root: string, options: ListOptions = {}): string[] {
  return listEntries(root, options).map((e) => e.path);
}

/** Byte-wise order, so listings are the same on every machine and locale. */
export function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

