/**
 * A small record per agent session in one state file (`{ "sessions": { id: record } }`), the newest
 * last, the oldest dropped past MAX_SESSIONS: what the Stop hook asked (checkpoints.json) and the
 * window Claude Code reports (windows.json).
 */
import { readStateJson } from './folder.js';
import { isRecord } from '../values.js';
import { loadModule } from '../load.js';

/** Sessions remembered; the oldest are dropped past this. */
const MAX_SESSIONS = 200;

type Records<T> = Record<string, T>;

/** The file's records that pass `valid`; a missing or corrupt file reads as none. */
export function readSessionRecords<T>(dir: string | undefined, file: string, valid: (entry: Record<string, unknown>) => T | undefined): Records<T> {
  const out = Object.create(null) as Records<T>;
  const data = readStateJson(dir, file, 1024 * 1024);
  const sessions = isRecord(data) ? data.sessions : undefined;
  if (!isRecord(sessions)) return out;
  for (const [id, entry] of Object.entries(sessions)) {
    const record = isRecord(entry) ? valid(entry) : undefined;
    if (record !== undefined) out[id] = record;
  }
  return out;
}

/**
 * Set one session's record (made the newest) and write the file through the one writer, under the
 * memory lock; `unchanged` skips the write when the record on disk already says the same. True when written.
 */
export async function writeSessionRecord<T>(
  root: string,
  dir: string,
  file: string,
  sessionId: string,
  record: T,
  options: { valid: (entry: Record<string, unknown>) => T | undefined; unchanged?: (old: T) => boolean },
): Promise<boolean> {
  const { withMemoryLock, writeStateFile } = await loadModule('../store/write.js', import.meta.url, () => import('../store/write.js'));
  return withMemoryLock(root, async () => {
    const all = readSessionRecords(dir, file, options.valid);
    const old = all[sessionId];
    if (old !== undefined && options.unchanged?.(old)) return false;
    delete all[sessionId];
    all[sessionId] = record;
    const ids = Object.keys(all);
    for (const id of ids.slice(0, Math.max(0, ids.length - MAX_SESSIONS))) delete all[id];
    await writeStateFile(dir, file, `${JSON.stringify({ sessions: all }, null, 1)}\n`);
    return true;
  });
}
