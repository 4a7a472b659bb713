import { lstatSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { cacheDir } from './cache-dir.js';
import { VERSION } from '../version.js';
import { isProblem, listEntries, readMemoryFile, unreadableProblem, type ScanOptions } from './scan.js';
import type { FileProblem, IndexEntry, IndexScanResult, MemoryFile } from './types.js';

/**
 * The index only needs a few frontmatter fields, so `index` and `ls` keep them in
 * .memctx/scan-cache.json keyed by each file's size, mtime, ctime and inode (as git's index does),
 * and re-read only files whose stat changed. A missing or corrupt cache is rebuilt, never fatal.
 */
const CACHE_FILE = 'scan-cache.json';
/** A new memctx version may parse differently: its cache starts afresh. */
export const CACHE_VERSION = `1:${VERSION}`;
/** Files changed this recently are not cached: a second edit in the same clock tick would not show in the stat. */
const RACY_MS = 2_000;

interface CacheRecord {
  key: string;
  entry?: IndexEntry;
  problem?: Omit<FileProblem, 'path'>;
}

interface CacheFile {
  version: string;
  records: Record<string, CacheRecord>;
}

export function toIndexEntry(file: MemoryFile): IndexEntry {
  const { path, name, description, type, kind, updated, created, importance, pinned, tags, status, supersedes, mtimeMs } = file;
  return { path, name, description, type, kind, updated, created, importance, pinned, tags, status, supersedes, mtimeMs };
}

function loadCache(dir: string | undefined): Record<string, CacheRecord> {
  try {
    if (!dir) return Object.create(null) as Record<string, CacheRecord>;
    const parsed = JSON.parse(readFileSync(join(dir, CACHE_FILE), 'utf8')) as CacheFile;
    if (parsed?.version === CACHE_VERSION && parsed.records && typeof parsed.records === 'object') return parsed.records;
  } catch {
    // missing or corrupt: start again
  }
  return Object.create(null) as Record<string, CacheRecord>;
}

function saveCache(dir: string | undefined, records: Record<string, CacheRecord>): void {
  if (!dir) return;
  try {
    const writeAtomic = createRequire(import.meta.url)('write-file-atomic') as typeof import('write-file-atomic');
    writeAtomic.sync(join(dir, CACHE_FILE), JSON.stringify({ version: CACHE_VERSION, records } satisfies CacheFile));
  } catch {
    // a read-only checkout still works, just without the cache
  }
}

/** Index entries for every memory file, from the cache where the file's stat is unchanged. */
export function scanIndexEntries(root: string, now: number, options: ScanOptions = {}): IndexScanResult {
  const dir = cacheDir(root);
  const cached = loadCache(dir);
  const records: Record<string, CacheRecord> = Object.create(null);
  const files: IndexEntry[] = [];
  const problems: FileProblem[] = [];
  let dirty = false;
  for (const { path, symlink, error } of listEntries(root, options)) {
    if (error) {
      problems.push(unreadableProblem({ path, symlink, error }));
      dirty = true;
      continue;
    }
    let key: string | undefined;
    let racy = true;
    if (!symlink) {
      try {
        const st = lstatSync(join(root, path));
        key = `${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}`;
        racy = now - Math.max(st.mtimeMs, st.ctimeMs) < RACY_MS;
      } catch {
        key = undefined;
      }
    }
    let record = key !== undefined ? cached[path] : undefined;
    if (!record || record.key !== key || (record.entry && !Array.isArray(record.entry.supersedes))) {
      const result = readMemoryFile(root, path, { ...options, symlink });
      record = isProblem(result) ? { key: key ?? '', problem: { line: result.line, message: result.message, hint: result.hint } } : { key: key ?? '', entry: toIndexEntry(result) };
      dirty = true;
    }
    if (key !== undefined && !racy) records[path] = record;
    else dirty = true;
    if (record.entry) files.push(record.entry);
    else if (record.problem) problems.push({ path, ...record.problem });
  }
  if (dirty || Object.keys(cached).length !== Object.keys(records).length) saveCache(dir, records);
  return { root, files, problems };
}
