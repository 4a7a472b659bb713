/**
 * Each session's context window as Claude Code reports it (the status line's
 * `context_window.context_window_size`), per session (windows.json in the state folder), so the Stop
 * hook measures against the real window rather than a guess from the model id.
 */
import { findMemoryDir } from '../store/find.js';
import { stateDir } from './folder.js';
import { readSessionRecords, writeSessionRecord } from './session-records.js';

const WINDOWS_FILE = 'windows.json';

interface SessionWindow {
  window: number;
  at: string;
}

const validWindow = ({ window, at }: Record<string, unknown>): SessionWindow | undefined =>
  typeof window === 'number' && Number.isSafeInteger(window) && window > 0 && typeof at === 'string' ? { window, at } : undefined;

/** The window recorded for a session; undefined when none was (or the file is missing or corrupt). */
export function readSessionWindow(root: string, sessionId: string): number | undefined {
  return readSessionRecords(stateDir(root), WINDOWS_FILE, validWindow)[sessionId]?.window;
}

/**
 * Record a session's window, only when it differs from the one recorded (the status line runs on
 * every message): true when it was written.
 */
export async function recordSessionWindow(root: string, sessionId: string, window: number, at: string): Promise<boolean> {
  const dir = stateDir(root);
  if (!dir || readSessionRecords(dir, WINDOWS_FILE, validWindow)[sessionId]?.window === window) return false;
  return writeSessionRecord(root, dir, WINDOWS_FILE, sessionId, { window, at }, { valid: validWindow, unchanged: (old) => old.window === window });
}

/**
 * The status line's record: the window of a session working in `folder`, in the state folder of the
 * memory directory found from there (as a hook finds it: never outside the project). Throws when there
 * is none; the caller swallows that.
 */
export async function recordFolderWindow(folder: string, sessionId: string, window: number, at: string, deps: { env: Record<string, string | undefined>; home: string }): Promise<boolean> {
  return recordSessionWindow(findMemoryDir({ cwd: folder, env: deps.env, home: deps.home, confined: true }), sessionId, window, at);
}
