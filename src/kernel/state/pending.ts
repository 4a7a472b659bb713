/**
 * Pending summaries: what `flush --hook` keeps when the lock stays busy, written by a later write.
 * A record is checked when it is kept and again when it is folded in, wherever its folder lives: it
 * may only make a new plain-named file in `sessions/`, of memory-file size, with no control
 * characters beyond tab and line ends; the record itself is read with no link followed.
 */
import { MAX_FILE_BYTES } from '../store/layout.js';
import { readAt } from '../store/read-file.js';
import { isRecord } from '../values.js';
const { closeSync, constants, fstatSync, openSync, readdirSync, renameSync } = process.getBuiltinModule('node:fs');

/** A summary `flush --hook` could not write in its time (the lock stayed busy), kept for the next run. */
export interface PendingFlush {
  /** The session file it was planned as, `sessions/NAME.md` (a free name is taken when it is written). */
  path: string;
  text: string;
  /** The template's folder: `sessions`. */
  dir: string;
  /** The session it came from (for reading; a record never replaces an existing file). */
  sessionId?: string;
}

/** The folder a record may write into. */
const PENDING_TARGET_DIR = 'sessions';

/** The most a record file may hold: its text at MAX_FILE_BYTES, JSON-escaped, and the other keys. */
const MAX_RECORD_BYTES = 4 * MAX_FILE_BYTES;

/** A plain file name: letters, digits, `.`, `_`, `-`, starting with a letter or digit, ending `.md`. */
const PLAIN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,150}\.md$/;

/** Control characters other than tab, line feed and carriage return (C0, DEL, C1). */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

export type Checked = { record: PendingFlush } | { reason: string };

/** Why this text cannot be a session file's, or undefined when it can. */
function textProblem(text: string): string | undefined {
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_FILE_BYTES) return `its text is ${bytes} bytes, over the ${MAX_FILE_BYTES}-byte limit of a memory file`;
  const control = CONTROL.exec(text);
  if (control) return `its text holds a control character (U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')})`;
  return undefined;
}

/** Why this target cannot be written, or undefined when it can: a new plain `.md` name directly in `sessions/`. */
function pathProblem(path: string, dir: string): string | undefined {
  if (dir !== PENDING_TARGET_DIR) return `its folder ${JSON.stringify(dir)} is not ${PENDING_TARGET_DIR}`;
  const prefix = `${PENDING_TARGET_DIR}/`;
  if (!path.startsWith(prefix) || !PLAIN_NAME.test(path.slice(prefix.length))) return `its path ${JSON.stringify(path)} is not a plain .md name in ${prefix}`;
  return undefined;
}

/** Check a parsed record: the shape, the target path, the text. */
export function checkPendingRecord(value: unknown): Checked {
  if (!isRecord(value) || typeof value.path !== 'string' || typeof value.text !== 'string' || typeof value.dir !== 'string') {
    return { reason: 'it is not a pending summary (an object with the strings path, text and dir)' };
  }
  if (value.sessionId !== undefined && (typeof value.sessionId !== 'string' || CONTROL.test(value.sessionId))) return { reason: 'its sessionId is not plain text' };
  const reason = pathProblem(value.path, value.dir) ?? textProblem(value.text);
  if (reason) return { reason };
  return { record: { path: value.path, text: value.text, dir: value.dir, ...(value.sessionId === undefined ? {} : { sessionId: value.sessionId }) } };
}

/** Check a record file's text (JSON, UTF-8). */
export function parsePendingRecord(bytes: Buffer): Checked {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (err) {
    return { reason: `it is not UTF-8 JSON (${(err as Error).message})` };
  }
  return checkPendingRecord(value);
}

/** Read and check one record file: a regular file (a link is not followed), at most MAX_RECORD_BYTES. */
export function readPendingRecord(abs: string): Checked {
  let fd: number;
  try {
    fd = openSync(abs, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { reason: code === 'ELOOP' ? 'it is a symbolic link' : `it cannot be read (${code ?? (err as Error).message})` };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { reason: 'it is not a regular file' };
    if (stat.size > MAX_RECORD_BYTES) return { reason: `it is ${stat.size} bytes, over the ${MAX_RECORD_BYTES}-byte limit of a record` };
    return parsePendingRecord(readAt(fd, 0, stat.size));
  } catch (err) {
    return { reason: `it cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` };
  } finally {
    closeSync(fd);
  }
}

/** The record files in a pending folder, oldest first (their names start with the time). */
export function pendingRecordNames(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => name.endsWith('.json')).sort();
  } catch {
    return [];
  }
}

/** Suffix of a record set aside: it is no longer a `.json` record, so it is never folded again. */
const REJECTED_SUFFIX = '.rejected';

/** Move a bad record aside (`NAME.json.rejected`, beside it); returns the new path, or undefined when it could not be moved. */
export function setAside(abs: string): string | undefined {
  try {
    renameSync(abs, `${abs}${REJECTED_SUFFIX}`);
    return `${abs}${REJECTED_SUFFIX}`;
  } catch {
    return undefined;
  }
}
