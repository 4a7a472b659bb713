import type { Dirent } from 'node:fs';
import { ARCHIVE_DIR, CACHE_DIR, INDEX_FILE, TEMPLATES_DIR } from './layout.js';
const fs = process.getBuiltinModule('node:fs');

/** Listing memory files: a plain directory walk, so callers that never parse (warm caches) stay light. */
export interface ListOptions {
  includeArchive?: boolean;
}

export interface Entry {
  path: string;
  symlink: boolean;
  /** Set for a folder that could not be read (EACCES …): it was skipped, the rest was listed. */
  error?: string;
}

type ReaddirSync = (path: string, options: { withFileTypes: true }) => Dirent[];

export interface WalkOptions {
  /** Enter folders and list files whose names start with a dot. */
  dot?: boolean;
  /** Folders at the top to leave out. */
  skipTop?: (name: string) => boolean;
  /** Folders at any depth to leave out (by name). */
  skipDir?: (name: string) => boolean;
  readdirSync?: ReaddirSync;
}

/**
 * The one directory walker (memory files, the repository without git, the memory directory's files):
 * every entry under root that is not a folder, as a relative path with `/` and its dirent, in no set
 * order. Symbolic links are listed, never followed. A folder that cannot be read is passed to
 * `onError` (as `.` for root itself) and skipped; the rest is walked.
 */
export function walkTree(root: string, options: WalkOptions, visit: (path: string, dirent: Dirent) => void, onError: (path: string, err: unknown) => void): void {
  const readdir = options.readdirSync ?? (fs.readdirSync);
  const walk = (dir: string, rel: string) => {
    let dirents: Dirent[];
    try {
      dirents = readdir(dir, { withFileTypes: true });
    } catch (err) {
      onError(rel || '.', err);
      return;
    }
    for (const dirent of dirents) {
      const name = dirent.name;
      if (!options.dot && name[0] === '.') continue;
      const path = rel ? `${rel}/${name}` : name;
      if (dirent.isDirectory()) {
        if (!(rel === '' && options.skipTop?.(name)) && !options.skipDir?.(name)) walk(`${dir}/${name}`, path);
      } else visit(path, dirent);
    }
  };
  walk(root, '');
}

const MD = /\.md$/i;

/**
 * The memory files under root, sorted byte-wise; symlinks are listed (not followed) and flagged.
 * No dot-files or dot-folders; no MEMORY.md, templates/ or archive/ at the top (any case).
 */
export function listEntries(root: string, options: ListOptions & { readdirSync?: ReaddirSync } = {}): Entry[] {
  const skip = new Set([CACHE_DIR, TEMPLATES_DIR, ...(options.includeArchive ? [] : [ARCHIVE_DIR])].map((name) => name.toLowerCase()));
  const index = INDEX_FILE.toLowerCase();
  const listed: Entry[] = [];
  const unreadable: Entry[] = [];
  walkTree(
    root,
    { skipTop: (name) => skip.has(name.toLowerCase()), readdirSync: options.readdirSync },
    (path, dirent) => {
      if (!MD.test(path) || path.toLowerCase() === index) return;
      if (dirent.isFile()) listed.push({ path, symlink: false });
      else if (dirent.isSymbolicLink()) listed.push({ path, symlink: true });
    },
    // A folder that cannot be read is noted and skipped, never fatal for the rest.
    (path, err) => unreadable.push({ path, symlink: false, error: (err as NodeJS.ErrnoException).code ?? (err as Error).message }),
  );
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
function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

