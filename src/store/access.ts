import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CACHE_DIR } from './scan.js';

/** Where access statistics live: `{ files: { path: { count, last } } }`, written by pack, show and search; read by gc. */
export const STATS_FILE = 'stats.json';

const LAST_KEYS = ['last', 'lastAccess', 'lastAccessed', 'last_access'];

function toMs(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string') {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? undefined : ms;
  }
  return undefined;
}

/**
 * Last access time per memory file (ms since the epoch) from `.memctx/stats.json`. A missing or
 * unreadable file means no access data: an empty map, never an error (the cache is always safe to
 * delete). Accepts `{ files: { path: entry } }` or `{ path: entry }`, where an entry is a time or an
 * object with a last-access key.
 */
export function readAccessTimes(root: string): Map<string, number> {
  const times = new Map<string, number>();
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(join(root, CACHE_DIR, STATS_FILE), 'utf8'));
  } catch {
    return times;
  }
  if (!data || typeof data !== 'object') return times;
  const record = data as Record<string, unknown>;
  const files = record.files && typeof record.files === 'object' ? (record.files as Record<string, unknown>) : record;
  for (const [path, entry] of Object.entries(files)) {
    let ms = toMs(entry);
    if (ms === undefined && entry && typeof entry === 'object') {
      for (const key of LAST_KEYS) {
        ms = toMs((entry as Record<string, unknown>)[key]);
        if (ms !== undefined) break;
      }
    }
    if (ms !== undefined) times.set(path, ms);
  }
  return times;
}
