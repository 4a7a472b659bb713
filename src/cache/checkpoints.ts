/**
 * Which usage thresholds the agent was already asked to save its summary at, per session
 * (checkpoints.json in the state folder), so a Stop hook asks once per threshold crossing.
 */
import { join } from 'node:path';
import { readStateFile, stateDir } from '../store/state.js';
import { withMemoryLock, writeFileAtomic } from '../store/write.js';

const CHECKPOINTS_FILE = 'checkpoints.json';
/** Sessions remembered; the oldest are dropped past this. */
const MAX_SESSIONS = 200;

interface Checkpoints {
  sessions: Record<string, { asked: number[]; at: string }>;
}

/** The thresholds already asked for in this session; a missing or corrupt file reads as none. */
export function readAsked(root: string, sessionId: string): number[] {
  const entry = readCheckpoints(root).sessions[sessionId];
  return entry ? entry.asked : [];
}

function readCheckpoints(root: string): Checkpoints {
  const out: Checkpoints = { sessions: Object.create(null) as Checkpoints['sessions'] };
  const dir = stateDir(root);
  const text = dir === undefined ? undefined : readStateFile(dir, CHECKPOINTS_FILE);
  let data: unknown;
  try {
    data = JSON.parse(text ?? '');
  } catch {
    return out;
  }
  const sessions = (data as { sessions?: unknown } | null)?.sessions;
  if (!sessions || typeof sessions !== 'object' || Array.isArray(sessions)) return out;
  for (const [id, entry] of Object.entries(sessions as Record<string, unknown>)) {
    const { asked, at } = (entry ?? {}) as { asked?: unknown; at?: unknown };
    if (Array.isArray(asked) && asked.every((t) => typeof t === 'number') && typeof at === 'string') out.sessions[id] = { asked: asked, at };
  }
  return out;
}

/** Record the thresholds asked for in a session, under the memory lock; false when there is no cache folder. */
export async function writeAsked(root: string, sessionId: string, asked: number[], at: string): Promise<boolean> {
  const dir = stateDir(root);
  if (!dir) return false;
  await withMemoryLock(root, async () => {
    const all = readCheckpoints(root);
    delete all.sessions[sessionId];
    all.sessions[sessionId] = { asked, at };
    const ids = Object.keys(all.sessions);
    for (const id of ids.slice(0, Math.max(0, ids.length - MAX_SESSIONS))) delete all.sessions[id];
    await writeFileAtomic(join(dir, CHECKPOINTS_FILE), `${JSON.stringify(all, null, 1)}\n`, { fsync: false, follow: false });
  });
  return true;
}
