/** Names inside the memory directory. A light module: importing it loads no parser. */
export const INDEX_FILE = 'MEMORY.md';
/** An older memctx's cache folder in the memory directory: skipped by listings, never read or written. */
export const CACHE_DIR = '.memctx';
export const ARCHIVE_DIR = 'archive';
export const TEMPLATES_DIR = 'templates';
/** Where `flush --hook` keeps a summary it could not write in time (the lock was busy), in the state folder. */
export const PENDING_DIR = 'pending';
/** Memory files are small; anything bigger is refused rather than read. */
export const MAX_FILE_BYTES = 1024 * 1024;

/** A memory file's name from its path: the last segment without `.md`. */
export function fileStem(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  return base.replace(/\.md$/i, '');
}
