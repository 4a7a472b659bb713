import { CountCache } from '../tokens/cache.js';
import { readStateFile, stateDir } from './folder.js';
import { writeStateFile } from '../store/write.js';

const TOKEN_CACHE_FILE = 'token-counts.json';
/** Past this many entries, a save keeps only the counts used by the current run. */
const MAX_CACHE_ENTRIES = 200_000;

export interface LoadedCountCache {
  cache: CountCache;
  /** `missing` (no file yet), `read`, or `rebuilt` (unreadable, corrupt or from another memctx version). */
  status: 'missing' | 'read' | 'rebuilt';
}

/**
 * The count cache of a memory directory, from its state folder; a missing or corrupt file, or one
 * written by another memctx version (`version`), gives an empty cache.
 */
export function readCountCache(root: string, version: string): LoadedCountCache {
  const dir = stateDir(root);
  const text = dir === undefined ? undefined : readStateFile(dir, TOKEN_CACHE_FILE);
  if (text === undefined) return { cache: new CountCache(), status: 'missing' };
  try {
    const data = JSON.parse(text) as { memctx?: unknown; counts?: unknown };
    if (data.memctx !== version || !data.counts || typeof data.counts !== 'object' || Array.isArray(data.counts)) throw new Error('outdated');
    const entries = new Map<string, number>();
    for (const [key, value] of Object.entries(data.counts as Record<string, unknown>)) {
      if (Number.isSafeInteger(value) && (value as number) >= 0) entries.set(key, value as number);
    }
    return { cache: new CountCache(entries), status: 'read' };
  } catch {
    const cache = new CountCache();
    cache.dirty = true; // rewrite the bad file even if nothing new is counted
    return { cache, status: 'rebuilt' };
  }
}

/** Save the cache when it changed (atomic write). Throws on I/O errors; callers treat that as a warning. */
export async function writeCountCache(root: string, cache: CountCache, version: string): Promise<boolean> {
  if (!cache.dirty) return false;
  const dir = stateDir(root);
  if (!dir) return false;
  let entries = [...cache.entries];
  if (entries.length > MAX_CACHE_ENTRIES) entries = entries.filter(([key]) => cache.used.has(key));
  await writeStateFile(dir, TOKEN_CACHE_FILE, `${JSON.stringify({ memctx: version, counts: Object.fromEntries(entries) })}\n`);
  cache.dirty = false;
  return true;
}
