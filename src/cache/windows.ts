/**
 * Each session's context window as Claude Code reports it (the status line's
 * `context_window.context_window_size`), per session (windows.json in the state folder), so the Stop
 * hook measures against the real window rather than a guess from the model id.
 */
import { join } from 'node:path';
import { readStateFile, stateDir } from '../store/state.js';

const WINDOWS_FILE = 'windows.json';
/** Sessions remembered; the oldest are dropped past this. */
const MAX_SESSIONS = 200;

type Windows = Record<string, { window: number; at: string }>;

function readWindows(dir: string): Windows {
  const out = Object.create(null) as Windows;
  let data: unknown;
  try {
    data = JSON.parse(readStateFile(dir, WINDOWS_FILE, 1024 * 1024) ?? '');
  } catch {
    return out;
  }
  const sessions = (data as { sessions?: unknown } | null)?.sessions;
  if (!sessions || typeof sessions !== 'object' || Array.isArray(sessions)) return out;
  for (const [id, entry] of Object.entries(sessions as Record<string, unknown>)) {
    const { window, at } = (entry ?? {}) as { window?: unknown; at?: unknown };
    if (typeof window === 'number' && Number.isSafeInteger(window) && window > 0 && typeof at === 'string') out[id] = { window, at };
  }
  return out;
}

/** The window recorded for a session; undefined when none was (or the file is missing or corrupt). */
export function readSessionWindow(root: string, sessionId: string): number | undefined {
  const dir = stateDir(root);
  return dir === undefined ? undefined : readWindows(dir)[sessionId]?.window;
}

/**
 * Record a session's window, only when it differs from the one recorded (the status line runs on
 * every message): true when it was written.
 */
export async function recordSessionWindow(root: string, sessionId: string, window: number, at: string): Promise<boolean> {
  const dir = stateDir(root);
  if (!dir || readWindows(dir)[sessionId]?.window === window) return false;
  const { withMemoryLock, writeFileAtomic } = await import('../store/write.js');
  return withMemoryLock(root, async () => {
    const all = readWindows(dir);
    if (all[sessionId]?.window === window) return false;
    delete all[sessionId];
    all[sessionId] = { window, at };
    const ids = Object.keys(all);
    for (const id of ids.slice(0, Math.max(0, ids.length - MAX_SESSIONS))) delete all[id];
    await writeFileAtomic(join(dir, WINDOWS_FILE), `${JSON.stringify({ sessions: all }, null, 1)}\n`, { fsync: false, follow: false });
    return true;
  });
}
