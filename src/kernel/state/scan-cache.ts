import { listEntries } from '../store/list.js';
import { conflictMarkerLines } from '../markdown/conflicts.js';
import { readMemoryFile, type ScanOptions } from '../store/scan.js';
import type { IndexEntry, IndexScanResult, MemoryFile } from '../store/types.js';
import { scanWithCache, type Projection } from './stat-cache.js';

/** The index only needs a few frontmatter fields: `index` and `ls` keep them in scan-cache.json (the state folder). */
const SCAN_CACHE_FILE = 'scan-cache.json';

function toIndexEntry(file: MemoryFile): IndexEntry {
  const { path, name, description, type, kind, updated, created, importance, pinned, tags, status, supersedes, mtimeMs } = file;
  const [conflict] = conflictMarkerLines(file.body);
  return { path, name, description, type, kind, updated, created, importance, pinned, tags, status, supersedes, mtimeMs, ...(conflict === undefined ? {} : { conflictLine: file.bodyLine + conflict - 1 }) };
}

function isIndexEntry(value: unknown, path: string): value is IndexEntry {
  const e = value as IndexEntry | undefined;
  return !!e && e.path === path && typeof e.name === 'string' && typeof e.description === 'string' && typeof e.importance === 'number' && typeof e.pinned === 'boolean' && Array.isArray(e.tags) && Array.isArray(e.supersedes);
}

const INDEX_PROJECTION: Projection<IndexEntry> = { file: SCAN_CACHE_FILE, project: toIndexEntry, valid: isIndexEntry };

/** Index entries for every memory file, from the cache where the file's stat is unchanged. */
export async function scanIndexEntries(root: string, now: number, options: ScanOptions = {}): Promise<IndexScanResult> {
  const scan = await scanWithCache(root, listEntries(root, options), INDEX_PROJECTION, {
    now,
    reader: async () => {
      return (path, symlink, detail) => readMemoryFile(root, path, { ...options, symlink, detail });
    },
  });
  try {
    await scan.save();
  } catch {
    // a read-only checkout still works, just without the cache
  }
  return { root, files: scan.values.map((v) => v.value), problems: scan.problems };
}

/**
 * Index entries for some files only (a capped directory view), from the same cache; the cache file is
 * not rewritten, so the other files' records stay.
 */
export async function indexEntriesFor(root: string, paths: readonly { path: string; symlink: boolean }[], now: number): Promise<IndexEntry[]> {
  const scan = await scanWithCache(root, paths, INDEX_PROJECTION, {
    now,
    reader: async () => {
      return (path, symlink, detail) => readMemoryFile(root, path, { symlink, detail });
    },
  });
  return scan.values.map((v) => v.value);
}
