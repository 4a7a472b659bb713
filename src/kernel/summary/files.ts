/** The files `memctx flush` reads and writes: user templates, source files, session files. */
import { join } from 'node:path';
import { decodeText, DecodeFailure } from '../store/decode.js';
import { MemctxError } from '../errors.js';
import { entryExists, resolveMemoryPath } from '../store/paths.js';
import { isProblem, readMemoryFile } from '../store/scan.js';
import { MAX_FILE_BYTES, TEMPLATES_DIR } from '../store/layout.js';
import { pendingDir } from '../state/folder.js';
import { writeFileAtomic, writeMemoryFile } from '../store/write.js';
import { checkPendingRecord, pendingRecordNames, readPendingRecord, setAside, type PendingFlush } from '../state/pending.js';
import { readRegularFile } from '../store/read-file.js';
import { listEntries } from '../store/list.js';
const { closeSync, existsSync, openSync, readdirSync, readSync, rmdirSync, rmSync, statSync } = process.getBuiltinModule('node:fs');


/** A user template's text, or undefined when `templates/NAME.md` does not exist. */
export function readUserTemplate(root: string, name: string): { path: string; text: string } | undefined {
  const rel = `${TEMPLATES_DIR}/${name}.md`;
  const target = resolveMemoryPath(root, rel);
  if (!existsSync(target.abs)) return undefined;
  try {
    return { path: target.rel, text: decodeText(readRegularFile(target.abs, { name: target.rel, maxBytes: MAX_FILE_BYTES, what: 'template', inside: root })) };
  } catch (err) {
    if (err instanceof MemctxError) throw err;
    if (err instanceof DecodeFailure) throw new MemctxError(`template ${target.rel}: ${err.message}`, { file: target.rel, line: err.line, hint: err.hint });
    throw new MemctxError(`cannot read template ${target.rel} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, { file: target.rel, hint: 'check its permissions' });
  }
}

/** The `*.md` files in one folder (a link counts when it leads to a file), no dot-files, in no set order. */
function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.name.endsWith('.md') && !e.name.startsWith('.') && (e.isFile() || (e.isSymbolicLink() && isFileAt(join(dir, e.name)))))
    .map((e) => e.name);
}

function isFileAt(abs: string): boolean {
  try {
    return statSync(abs).isFile();
  } catch {
    return false;
  }
}

/** Names of the user templates in `templates/`. */
export function listUserTemplates(root: string): string[] {
  const dir = join(root, TEMPLATES_DIR);
  if (!existsSync(dir)) return [];
  return markdownFiles(dir).map((f) => f.replace(/\.md$/, '')).sort();
}

/**
 * The start of a text file for a one-line summary: undefined when it is missing, not a regular file,
 * binary or unreadable. Reads at most maxBytes.
 */
export function readSourceHead(abs: string, maxBytes = 256 * 1024): string | undefined {
  let fd: number | undefined;
  try {
    if (!statSync(abs).isFile()) return undefined;
    fd = openSync(abs, 'r');
    const buf = Buffer.alloc(maxBytes);
    const n = readSync(fd, buf, 0, maxBytes, 0);
    const bytes = buf.subarray(0, n);
    if (bytes.subarray(0, 8192).includes(0)) return undefined;
    return bytes.toString('utf8');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The next free `DEC-YYYY-MM-DD-NNN` for the day, from file names and `id:` keys (archive included). */
export function nextDecisionId(root: string, date: string): string {
  const pattern = new RegExp(`DEC-${date}-(\\d{3,})`);
  let highest = 0;
  const paths = listEntries(root, { includeArchive: true }).filter((e) => !e.error && !e.symlink).map((e) => e.path);
  for (const path of paths) {
    const fromName = pattern.exec(path.slice(path.lastIndexOf('/') + 1));
    if (fromName) highest = Math.max(highest, Number(fromName[1]));
    const head = readSourceHead(join(root, path), 2048);
    const fromId = head ? new RegExp(`^id:\\s*['"]?DEC-${date}-(\\d{3,})`, 'm').exec(head) : null;
    if (fromId) highest = Math.max(highest, Number(fromId[1]));
  }
  return `DEC-${date}-${String(highest + 1).padStart(3, '0')}`;
}

/** `sessions/x.md`, else `sessions/x-2.md`, `-3`, … : the first name not taken (a dangling link takes one). Call under the memory lock. */
export function freePath(root: string, rel: string): string {
  const base = rel.replace(/\.md$/, '');
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? `${base}.md` : `${base}-${n}.md`;
    if (!entryExists(join(root, candidate))) return candidate;
  }
}

/** Write a new file inside the memory directory (atomically). Call under the memory lock. */
export async function writeMemoryText(root: string, rel: string, text: string): Promise<void> {
  const target = resolveMemoryPath(root, rel);
  await writeMemoryFile(target.abs, rel, text, { inside: root });
}

/** The session file an earlier hook run or the agent itself (`written_by`) wrote for this session id, if any. */
export function findHookSessionFile(root: string, dir: string, sessionId: string): string | undefined {
  if (!existsSync(join(root, dir))) return undefined;
  for (const name of markdownFiles(join(root, dir)).sort()) {
    const path = `${dir}/${name}`;
    const file = readMemoryFile(root, path);
    if (!isProblem(file) && (file.data.hook_event !== undefined || file.data.written_by !== undefined) && String(file.data.session_id) === sessionId) return path;
  }
  return undefined;
}

/** Keep a summary in the state folder's pending/ (no lock needed: a fresh name); returns the record's path. Refuses a record a fold would set aside. */
export async function savePendingFlush(root: string, record: PendingFlush, now: Date): Promise<string> {
  const checked = checkPendingRecord(record);
  if ('reason' in checked) throw new MemctxError(`the summary could not be kept for a later write: ${checked.reason}`, { hint: 'run `memctx flush` again once the memory directory is free' });
  const dir = pendingDir(root);
  if (dir === undefined) throw new MemctxError('no state folder to keep the summary in', { file: root, hint: 'run `memctx flush` again once the memory directory is free' });
  const abs = join(dir, `${now.toISOString().replace(/[:.]/g, '')}-${process.pid}.json`);
  await writeFileAtomic(abs, `${JSON.stringify(checked.record)}\n`, { follow: false });
  return abs;
}

/**
 * Write every kept summary into a new session file, oldest first, and remove it from pending/. Call
 * under the memory lock. A record that fails its checks (or its write) is set aside once as
 * `NAME.json.rejected` and named to `warn`; it never stops the write that folds. Returns the files written.
 */
export async function foldPendingFlushes(root: string, warn: (message: string) => void): Promise<string[]> {
  const dir = pendingDir(root);
  if (dir === undefined || !existsSync(dir)) return [];
  const written: string[] = [];
  for (const name of pendingRecordNames(dir)) {
    const abs = join(dir, name);
    const folded = await foldOne(root, abs);
    if ('written' in folded) written.push(folded.written);
    else warn(rejected(abs, folded.reason));
  }
  try {
    rmdirSync(dir); // only when empty
  } catch {
    // not empty
  }
  return written;
}

/** Write one record as a new session file (never over an existing one) and remove it; or why not. */
async function foldOne(root: string, abs: string): Promise<{ written: string } | { reason: string }> {
  const read = readPendingRecord(abs);
  if ('reason' in read) return read;
  const path = freePath(root, read.record.path);
  try {
    await writeMemoryText(root, path, read.record.text);
  } catch (err) {
    if (!(err instanceof MemctxError)) throw err;
    return { reason: `writing it as ${path} failed: ${err.message}` };
  }
  rmSync(abs, { force: true });
  return { written: path };
}

/** The warning for a record set aside. */
function rejected(abs: string, reason: string): string {
  const moved = setAside(abs);
  const where = moved ? `set aside as ${moved}` : 'left in place (it could not be moved aside)';
  return `pending summary ${abs} not written: ${reason}; ${where}. Read it and delete it`;
}
