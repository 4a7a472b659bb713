import * as fs from 'node:fs';
import { relative } from 'node:path';
import fg from 'fast-glob';
import { ARCHIVE_DIR, CACHE_DIR, INDEX_FILE, TEMPLATES_DIR } from './layout.js';

/** Listing memory files: fast-glob only, so callers that never parse (warm caches) stay light. */
export interface ListOptions {
  includeArchive?: boolean;
}

export interface Entry {
  path: string;
  symlink: boolean;
  /** Set for a folder that could not be read (EACCES …): it was skipped, the rest was listed. */
  error?: string;
}

type ReaddirSync = (path: string, options: { withFileTypes: true }) => fs.Dirent[];

/** The memory files under root, sorted byte-wise; symlinks are listed (not followed) and flagged. */
export function listEntries(root: string, options: ListOptions & { readdirSync?: ReaddirSync } = {}): Entry[] {
  const ignore = [`${CACHE_DIR}/**`, `${TEMPLATES_DIR}/**`, INDEX_FILE];
  if (!options.includeArchive) ignore.push(`${ARCHIVE_DIR}/**`);
  // A folder that cannot be read is noted and skipped (suppressErrors), never fatal for the rest.
  const unreadable: Entry[] = [];
  const readdir = options.readdirSync ?? (fs.readdirSync as unknown as ReaddirSync);
  const readdirSync = ((path: string, opts: { withFileTypes: true }) => {
    try {
      return readdir(path, opts);
    } catch (err) {
      const rel = relative(root, path).split('\\').join('/') || '.';
      unreadable.push({ path: rel, symlink: false, error: (err as NodeJS.ErrnoException).code ?? (err as Error).message });
      throw err;
    }
  }) as unknown as typeof fs.readdirSync;
  // Symlinks are listed but not followed: readMemoryFile refuses those that lead outside root.
  const entries = fg.sync('**/*.md', {
    cwd: root, ignore, dot: false, onlyFiles: false, followSymbolicLinks: false, caseSensitiveMatch: false, objectMode: true, suppressErrors: true, fs: { readdirSync },
  });
  const listed: Entry[] = entries
    .filter((e) => e.dirent.isFile() || e.dirent.isSymbolicLink())
    .map((e) => ({ path: e.path, symlink: e.dirent.isSymbolicLink() }));
  return [...listed, ...unreadable].sort((a, b) => comparePaths(a.path, b.path));
}

/** A listing error as a problem to report: the folder was skipped. */
export function unreadableProblem(entry: Entry): { path: string; message: string; hint: string } {
  return { path: `${entry.path}/`, message: `cannot read this folder (${entry.error}); skipped, the rest was read`, hint: 'check its permissions, or move it out of the memory directory' };
}

/** Relative paths of the memory files under root: `.md` only, no dot-files, no cache, archive or templates. */
export function listMemoryPaths(root: string, options: ListOptions = {}): string[] {
  return listEntries(root, options).filter((e) => !e.error).map((e) => e.path);
}

/** Byte-wise order, so listings are the same on every machine and locale. */
export function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

