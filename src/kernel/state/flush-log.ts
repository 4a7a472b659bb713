import { join } from 'node:path';
import { readStateFile, stateDir } from './folder.js';
import { appendLine, writeStateFile } from '../store/write.js';
import { findMemoryDir } from '../store/find.js';
import { isoTimestamp } from '../store/schema.js';

const FLUSH_LOG = 'flush.log';
/** The log is cut to its newer half once it grows past this. */
const MAX_LOG_BYTES = 512 * 1024;

/**
 * Append one line to flush.log in the state folder (opened without following a link), halving the
 * log when it grows too big. Never throws.
 */
export function appendFlushLog(root: string, line: string): boolean {
  try {
    const dir = stateDir(root);
    if (!dir) return false;
    const size = appendLine(join(dir, FLUSH_LOG), line.replace(/[\r\n]/g, ' '));
    if (size === undefined) return false;
    if (size > MAX_LOG_BYTES) void halveLog(dir);
    return true;
  } catch {
    return false;
  }
}

/** Keep the newer half of the log (whole lines), written through the one writer. */
async function halveLog(dir: string): Promise<void> {
  const text = readStateFile(dir, FLUSH_LOG);
  if (text === undefined) return;
  const keep = text.slice(Math.floor(text.length / 2));
  await writeStateFile(dir, FLUSH_LOG, keep.slice(keep.indexOf('\n') + 1)).catch(() => undefined);
}

/**
 * The one place a hook failure is logged (flush --hook, checkpoint, and a bad option before either
 * could start): `<time> <label> error: <message>` in flush.log; false when there is no memory
 * directory or it cannot be written. Never throws.
 */
export function logHookFailure(root: string | undefined, label: string, message: string, now: Date): boolean {
  return root ? appendFlushLog(root, `${isoTimestamp(now)} ${label} error: ${message}`) : false;
}

/** A hook's failure as one log line's message: where (file:line), what, and the hint. */
export function hookFailureText(err: { message: string; file?: string; line?: number; hint?: string }): string {
  const where = err.file ? `${err.file}${err.line ? `:${err.line}` : ''}: ` : '';
  return `${where}${err.message}${err.hint ? ` (${err.hint})` : ''}`;
}

/** What a hook's line on stderr adds when its problem did not reach the log. */
export function notLoggedNote(log: { logged: boolean; root?: string }): string {
  return log.logged ? '' : log.root ? ' (not logged: the memory directory is not writable)' : ' (not logged: no memory directory found)';
}

/** Log a hook problem found before its command could start (an unknown option, a bad value); never throws. */
export async function logHookProblem(
  message: string,
  deps: { cwd: string; env: Record<string, string | undefined>; home: string; now: () => Date; dir?: string; claude?: boolean },
): Promise<{ logged: boolean; root?: string }> {
  try {
    const root = findMemoryDir({ dir: deps.dir, claude: deps.claude, cwd: deps.cwd, env: deps.env, home: deps.home, confined: true });
    return { logged: logHookFailure(root, 'hook', message, deps.now()), root };
  } catch {
    return { logged: false };
  }
}
