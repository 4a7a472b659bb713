import { isoTimestamp } from '../store/schema.js';
import { readStateJson, stateDir } from './folder.js';
import { dateMs, parseDate } from '../dates.js';
import { withMemoryLock, writeStateFile } from '../store/write.js';

const STATS_FILE = 'stats.json';

/** How often and when each memory file was read, by path. Kept out of the files so reads never dirty git. */
export interface AccessStats {
  files: Record<string, { count: number; last: string }>;
}

/** The access statistics; a missing or corrupt file reads as empty (and is rebuilt on the next write). */
export function readStats(root: string): AccessStats {
  const stats: AccessStats = { files: Object.create(null) as AccessStats['files'] };
  const files = (readStateJson(stateDir(root), STATS_FILE) as { files?: unknown } | null | undefined)?.files;
  if (!files || typeof files !== 'object' || Array.isArray(files)) return stats;
  for (const [path, entry] of Object.entries(files as Record<string, unknown>)) {
    const { count, last } = (entry ?? {}) as { count?: unknown; last?: unknown };
    if (Number.isSafeInteger(count) && (count as number) >= 0 && typeof last === 'string' && parseDate(last) !== undefined) {
      stats.files[path] = { count: count as number, last };
    }
  }
  return stats;
}

export function accessCount(stats: AccessStats, path: string): number {
  return Object.prototype.hasOwnProperty.call(stats.files, path) ? stats.files[path].count : 0;
}

/** Last access time per path (ms since the epoch), for gc's "never accessed" rule. */
export function readAccessTimes(root: string): Map<string, number> {
  return new Map(Object.entries(readStats(root).files).map(([path, entry]) => [path, dateMs(entry.last)]));
}

/** Add one access to each path, at `now`, under the memory directory's lock. */
export async function recordAccess(root: string, paths: readonly string[], now: Date): Promise<void> {
  // No state where there is no MEMORY.md (a read-only command pointed at any folder leaves no trace).
  const dir = stateDir(root);
  if (paths.length === 0 || !dir) return;
  await withMemoryLock(root, async () => {
    const stats = readStats(root);
    const last = isoTimestamp(now);
    for (const path of new Set(paths)) {
      const entry = Object.prototype.hasOwnProperty.call(stats.files, path) ? stats.files[path] : { count: 0, last };
      stats.files[path] = { count: entry.count + 1, last };
    }
    await writeStateFile(dir, STATS_FILE, `${JSON.stringify(stats, null, 1)}\n`);
  });
}
