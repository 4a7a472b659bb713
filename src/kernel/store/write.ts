import { hostname } from 'node:os';
import type { Stats } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { MemctxError } from '../errors.js';
import { assertStillInside, isInside } from './paths.js';
import { fileKind, linkTarget } from './read-file.js';
import { MAX_FILE_BYTES } from './layout.js';
import { statePlace } from '../state/folder.js';
import { DecodeFailure, decodeText } from './decode.js';
import { walkTree } from './list.js';
import { isRecord } from '../values.js';
import type * as ProperLockfile from 'proper-lockfile';

// node:fs without an ES module import (which costs a hook 30-60 M instructions: kernel/cli/context.ts);
// opens and renames go through `fs.` at each call, where a test swaps a path at that exact moment.
const fs = process.getBuiltinModule('node:fs');
const { closeSync, constants, fchmodSync, fstatSync, fsyncSync, lstatSync, mkdirSync, realpathSync, rmSync, statSync, unlinkSync, writeSync } = fs;

/** The name every temporary file of memctx starts with; the sweep removes nothing else. */
export const TEMP_PREFIX = '.memctx-tmp-';

let tempsMade = 0;

/**
 * A name of this process's own: memctx's prefix, the process id, a count and a random part. Files
 * are created with O_EXCL, so the name needs to be unique, not secret: Math.random spares the hook
 * loading node:crypto (about 2.5 ms).
 */
function tempName(tag = ''): string {
  return `${TEMP_PREFIX}${tag}${process.pid}-${(tempsMade += 1).toString(36)}${Math.random().toString(36).slice(2, 10)}`;
}

const sameEntry = (a: Stats, b: Stats) => a.dev === b.dev && a.ino === b.ino;

/** Texts as one UTF-8 buffer, encoded one by one: Latin-1 parts stay on the fast path even when another part is not. */
function utf8Parts(parts: readonly string[]): Buffer {
  let size = 0;
  for (const part of parts) size += Buffer.byteLength(part, 'utf8');
  const bytes = Buffer.allocUnsafe(size);
  let at = 0;
  for (const part of parts) at += bytes.write(part, at, 'utf8');
  return bytes;
}

/**
 * Write a file atomically, creating its directory; a MemctxError naming the file when it cannot.
 * The text goes into a temporary file created (O_EXCL, O_NOFOLLOW) in the folder that was checked,
 * which is then renamed over the name: rename replaces a link at the name rather than following it.
 * A link at the name is followed only by hand, to where it leads now (and, with `inside`, only
 * when that is inside). With `inside` (the memory directory) the path is checked right before the
 * folder is made, before the temporary file is opened and before the rename; after opening, the
 * descriptor is compared (dev/ino) with the entry at the temporary name, and the folder with the
 * one that was checked, so a folder swapped for a link in between is caught and nothing is written
 * through it. What remains: Node has no openat()/renameat() on a held directory descriptor, so a
 * folder swapped after the last check and before rename() makes the rename fail (the temporary file
 * is not in the swapped-in folder) rather than write outside. `fsync: false` for caches: a cache lost
 * in a crash is rebuilt, and skipping the flush saves a disk round trip. `follow: false` (machine
 * state) replaces a link at the name instead of following it.
 */
export async function writeFileAtomic(abs: string, text: string | Buffer | readonly string[], options: { inside?: string; mkdir?: boolean; fsync?: boolean; follow?: boolean } = {}): Promise<void> {
  const { inside } = options;
  let tmp: string | undefined;
  try {
    if (inside !== undefined) {
      assertLockHeld(inside);
      assertStillInside(inside, abs);
    }
    if (options.mkdir !== false) mkdirSync(dirname(abs), { recursive: true });
    const target = options.follow === false ? abs : linkTarget(abs);
    const dir = dirname(target);
    if (inside !== undefined) assertStillInside(inside, target);
    const folder = statSync(dir);
    const existing = lstatSync(target, { throwIfNoEntry: false });
    if (existing?.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    const name = join(dir, tempName());
    const fd = fs.openSync(name, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, existing?.isFile() ? existing.mode & 0o7777 : 0o666);
    tmp = name;
    const inPlace = (opened: Stats) => {
      const now = lstatSync(name, { throwIfNoEntry: false });
      if (!now || !sameEntry(now, opened) || !sameEntry(statSync(dir), folder)) throw swapped(inside ?? dir, abs);
      if (inside !== undefined) assertStillInside(inside, target);
    };
    try {
      const opened = fstatSync(fd);
      inPlace(opened);
      if (existing?.isFile()) fchmodSync(fd, existing.mode & 0o7777);
      writeAll(fd, text, options.fsync ?? true);
      inPlace(opened);
    } finally {
      closeSync(fd);
    }
    if (inside !== undefined) assertLockHeld(inside);
    fs.renameSync(name, target);
    tmp = undefined;
  } catch (err) {
    if (tmp !== undefined) rmSync(tmp, { force: true });
    throw writeError(err, abs, inside);
  }
}

/** Write all of `text` to the open file, flushed to disk when `fsync`. */
function writeAll(fd: number, text: string | Buffer | readonly string[], fsync: boolean): void {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : Buffer.isBuffer(text) ? text : utf8Parts(text);
  for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done);
  if (fsync) fsyncSync(fd);
}

/** A failed write as the error to throw: a MemctxError naming the file and what to do, or the error itself. */
function writeError(err: unknown, abs: string, inside: string | undefined): unknown {
  if (err instanceof MemctxError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EEXIST' || code === 'ENOTDIR') {
    return new MemctxError('cannot create the file: a file stands where a folder of its path should be', { file: abs, hint: 'choose a path whose folders are not files' });
  }
  if (code === 'EISDIR') return new MemctxError('cannot write the file: it is a directory', { file: abs, hint: 'choose another path' });
  if (code === 'ENOENT' && inside !== undefined) return swapped(inside, abs);
  if (code) return new MemctxError(`cannot write the file (${code})`, { file: abs, hint: 'check the permissions and free space of the memory directory' });
  return err;
}

/**
 * Write a file of machine state in its checked state folder (store/state.ts): a link at the name is
 * replaced, never followed, and not forced to disk (state lost in a crash is rebuilt).
 */
export async function writeStateFile(dir: string, name: string, text: string | Buffer): Promise<void> {
  await writeFileAtomic(join(dir, name), text, { fsync: false, follow: false });
}

/**
 * A new file in a checked folder with its name removed at once, open for reading and writing (another
 * process writes there, this one reads it back): created with O_EXCL and O_NOFOLLOW, this user's only,
 * under a temporary name the sweep would remove. Undefined when it cannot be made.
 */
export function openScratchFile(dir: string): number | undefined {
  const name = join(dir, tempName('scratch-'));
  let fd: number | undefined;
  try {
    fd = fs.openSync(name, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    unlinkSync(name);
    return fd;
  } catch {
    if (fd !== undefined) closeSync(fd);
    return undefined;
  }
}

/**
 * Append one line to a log in a checked folder: opened without following a link at the name (and
 * never blocking on a FIFO), a regular file only. The file's size after, or undefined when it is not
 * a regular file.
 */
export function appendLine(abs: string, line: string): number | undefined {
  const fd = fs.openSync(abs, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o600);
  try {
    if (!fstatSync(fd).isFile()) return undefined;
    writeSync(fd, `${line}\n`);
    return fstatSync(fd).size;
  } finally {
    closeSync(fd);
  }
}

function swapped(root: string, abs: string): MemctxError {
  return new MemctxError(`${relative(root, abs).split(sep).join('/')} was not changed: a folder on its path was replaced (by a symbolic link?) while it was written`, {
    file: abs,
    hint: 'replace the link with a real folder inside the memory directory, then run the command again',
  });
}

/**
 * Refuse a memory file that memctx could not read back: over the size limit, or holding binary data
 * (a NUL byte). `rel` names the file in the error.
 */
export function checkMemoryText(rel: string, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length > MAX_FILE_BYTES) {
    throw new MemctxError(`the file would be ${bytes.length} bytes, over the ${MAX_FILE_BYTES}-byte limit memctx reads; nothing written`, { file: rel, hint: 'split it into smaller memory files' });
  }
  try {
    decodeText(bytes);
  } catch (err) {
    if (err instanceof DecodeFailure) throw new MemctxError(`the file would hold ${err.message}; nothing written`, { file: rel, line: err.line, hint: 'remove the NUL bytes (memory files are UTF-8 Markdown text)' });
    throw err;
  }
}

/** Write a memory file atomically, refusing what memctx could not read back (see checkMemoryText). */
export async function writeMemoryFile(abs: string, rel: string, text: string, options: { inside?: string } = {}): Promise<void> {
  checkMemoryText(rel, text);
  await writeFileAtomic(abs, text, options);
}

/** A lock not refreshed for this long is taken over (its holder was killed or paused). */
const LOCK_STALE_MS = 10_000;

/** Why a lock was not taken within the wait a caller allowed (`maxWaitMs`). */
export class LockBusy extends MemctxError {}

/** The write lock's folder: `lock` in the memory directory's state folder (state.ts), made when missing. */
function lockPathOf(root: string): string {
  const place = statePlace(root, { always: true });
  if (place.dir === undefined) {
    throw new MemctxError(`cannot keep the write lock: ${place.reason ?? 'no state folder'}`, {
      file: root,
      hint: 'memctx keeps its lock in the git directory (.git/memctx/) or, outside git, in $XDG_CACHE_HOME/memctx/: make that folder writable and yours',
    });
  }
  return join(place.dir, 'lock');
}

/**
 * Run fn while holding the memory directory's write lock (lockPathOf), so that concurrent memctx
 * processes serialise their writes and index rebuilds. A lock whose holder is gone (same host, its
 * process no longer alive or its id reused) is taken at once, one with no readable owner once it
 * is older than OWNERLESS_GRACE_MS; one whose holder is alive but paused, or on another host, is
 * respected until it goes stale (LOCK_STALE_MS without a refresh). `maxWaitMs` bounds the wait (LockBusy
 * past it); the default waits about as long as a stale lock takes to expire, plus slack.
 */
export async function withMemoryLock<T>(root: string, fn: () => Promise<T>, options: { maxWaitMs?: number } = {}): Promise<T> {
  // A plain require on the first lock (Node keeps it): an ES module import of this CommonJS package would parse it for its export names too.
  const lockfile = process.getBuiltinModule('node:module').createRequire(import.meta.url)('proper-lockfile') as typeof ProperLockfile;
  const lockPath = lockPathOf(root);
  const cache = dirname(lockPath);
  let release: () => Promise<void>;
  const state: LockState = { path: lockPath };
  try {
    // Refreshed every second; a pause longer than `stale` (Ctrl-Z, sleep, a long blocking scan) lets
    // another process take the lock: onCompromised records it and every later write refuses. The
    // lock folder holds an `owner` file, so removing a stale lock removes the folder with it.
    const lockOptions = { lockfilePath: lockPath, realpath: false, stale: LOCK_STALE_MS, update: 1_000, onCompromised: (err: Error) => (state.lost = err), fs: LOCK_FS, retries: 0 };
    const deadline = Date.now() + (options.maxWaitMs ?? LOCK_STALE_MS * 4);
    for (let attempt = 0; ; attempt++) {
      try {
        release = await lockfile.lock(root, lockOptions);
        break;
      } catch (err) {
        // Only a lock held by another process is worth waiting for: an unwritable directory
        // (EACCES, EPERM, EROFS) is reported at once.
        if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw err;
        if (attempt === 0) refuseFutureLock(lockPath);
        if (takeDeadLock(cache, lockPath)) continue;
        const left = deadline - Date.now();
        if (left <= 0) throw err;
        await new Promise((done) => setTimeout(done, Math.min(left, 10 * 1.3 ** Math.min(attempt, 12), 200)));
      }
    }
    writeOwner(lockPath);
  } catch (err) {
    if (err instanceof MemctxError) throw err;
    throw lockError(lockPath, err as NodeJS.ErrnoException, options.maxWaitMs);
  }
  const key = lockKey(root);
  HELD.set(key, state);
  removeLeftoverTemps(root, Date.now());
  try {
    const value = await fn();
    assertLockHeld(root);
    return value;
  } finally {
    HELD.delete(key);
    await release().catch(() => undefined);
  }
}

/**
 * proper-lockfile's fs: the calls it makes, each done synchronously in its callback form, as its own
 * lockSync does (three async calls would start libuv's four pool threads for a hook), with a stale
 * lock folder removed together with its `owner` file (named one by one: spreading `fs` would load its
 * stream classes and `fs.promises`).
 */
const LOCK_FS = {
  mkdir: viaCallback(fs.mkdirSync),
  stat: viaCallback(fs.statSync),
  utimes: viaCallback(fs.utimesSync),
  realpath: viaCallback(fs.realpathSync),
  rmdir: viaCallback(removeLockFolder),
  rmdirSync: (path: string) => {
    try {
      removeLockFolder(path);
    } catch {
      // Gone already, or not removable: as rmSync with force.
    }
  },
};

/** A synchronous call in Node's callback form: its arguments, then `done(err, result)` (called outside the try). */
function viaCallback(call: (...args: never[]) => unknown): (...args: unknown[]) => void {
  return (...args) => {
    const done = args.pop() as (err: NodeJS.ErrnoException | null, result?: unknown) => void;
    let result: unknown;
    try {
      result = (call as (...given: unknown[]) => unknown)(...args);
    } catch (err) {
      done(err as NodeJS.ErrnoException);
      return;
    }
    done(null, result);
  };
}

/**
 * A lock folder and its `owner` file: the file and then the folder by name, which spares loading the
 * recursive remove (about 0.8 ms of a hook); a folder holding anything else is removed recursively.
 */
function removeLockFolder(path: string): void {
  try {
    fs.unlinkSync(join(path, OWNER));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
      fs.rmSync(path, { recursive: true });
      return;
    }
  }
  try {
    fs.rmdirSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOTEMPTY' && (err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    fs.rmSync(path, { recursive: true, force: true });
  }
}

const OWNER = 'owner';

/**
 * Record who holds the lock (this process, this host, and when this process started, so that a
 * later process given the same id is not taken for it) inside the lock folder. Adding a file changes
 * the folder's mtime, which proper-lockfile checks on every refresh ("is the lock still ours"), so
 * the mtime it set is put back.
 */
function writeOwner(lockPath: string): void {
  try {
    const { mtime } = fs.statSync(lockPath);
    fs.writeFileSync(join(lockPath, OWNER), `${JSON.stringify({ pid: process.pid, host: hostname(), start: processStart(process.pid) })}\n`);
    fs.utimesSync(lockPath, mtime, mtime);
  } catch {
    // without it the lock still works; it only expires by time
  }
}

/**
 * When process `pid` started, as Linux's /proc/<pid>/stat gives it (field 22, clock ticks since
 * boot; the command name before it may hold spaces and parentheses); undefined where there is no /proc.
 */
function processStart(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** Who the `owner` file says holds a lock: a process on this host, one on another host, or nobody readable (missing, corrupt). */
type Holder = { pid: number; start?: string } | 'other host' | 'unknown';

function lockHolder(lockPath: string): Holder {
  let owner: unknown;
  try {
    owner = JSON.parse(fs.readFileSync(join(lockPath, OWNER), 'utf8'));
  } catch {
    return 'unknown';
  }
  if (!isRecord(owner) || typeof owner.host !== 'string' || typeof owner.pid !== 'number' || !Number.isInteger(owner.pid) || owner.pid <= 0) return 'unknown';
  if (owner.host !== hostname()) return 'other host';
  return { pid: owner.pid, start: typeof owner.start === 'string' ? owner.start : undefined };
}

/** True when process `pid` exists (a process of another user, EPERM, exists too). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A lock with no readable owner is judged by its age: its holder writes the owner right after taking
 * it and refreshes the folder's mtime every second, so past this it is a leftover (or a copy).
 */
const OWNERLESS_GRACE_MS = 2_000;

/**
 * True when the lock at `lockPath` is dead: its holder on this host is gone, or its id now belongs
 * to a process that started at another time (the id was reused); or it has no readable owner and has
 * not been refreshed within the grace. Another host's lock is respected until proper-lockfile finds
 * it stale (LOCK_STALE_MS without a refresh).
 */
function deadLock(lockPath: string, holder: Holder): boolean {
  if (holder === 'other host') return false;
  if (holder === 'unknown') {
    const stat = fs.statSync(lockPath, { throwIfNoEntry: false });
    return stat !== undefined && Date.now() - stat.mtimeMs > OWNERLESS_GRACE_MS;
  }
  if (holder.pid === process.pid) return false;
  if (!alive(holder.pid)) return true;
  const start = holder.start === undefined ? undefined : processStart(holder.pid);
  return start !== undefined && start !== holder.start;
}

const sameHolder = (a: Holder, b: Holder) => (typeof a === 'string' || typeof b === 'string' ? a === b : a.pid === b.pid && a.start === b.start);

/**
 * Remove a dead lock (see deadLock): the folder is first renamed to a name of this process's own,
 * so two processes doing this at once never remove a lock that a third has just taken; a folder
 * that then turns out to be another holder's, or alive, is put back. True when removed.
 */
function takeDeadLock(cache: string, lockPath: string): boolean {
  const holder = lockHolder(lockPath);
  if (!deadLock(lockPath, holder)) return false;
  const aside = join(cache, tempName('lock-'));
  try {
    fs.renameSync(lockPath, aside);
  } catch {
    return false;
  }
  const moved = lockHolder(aside);
  if (sameHolder(moved, holder) && deadLock(aside, moved)) {
    rmSync(aside, { recursive: true, force: true });
    return true;
  }
  try {
    fs.renameSync(aside, lockPath);
  } catch {
    rmSync(aside, { recursive: true, force: true });
  }
  return false;
}

interface LockState {
  path: string;
  lost?: Error;
}

/** The locks this process holds, by memory directory, and whether each is still ours. */
const HELD = new Map<string, LockState>();
const lockKey = (root: string) => resolve(root);

/**
 * Refuse to write when this process took the memory directory's lock and has since lost it (it was
 * paused past the stale time and another process took over): stop before writing more.
 */
export function assertLockHeld(root: string): void {
  const state = HELD.get(lockKey(root));
  if (state?.lost) {
    throw new MemctxError('the write lock was lost while this command was paused (more than 10 seconds), so another memctx process may be writing; stopped before writing more', {
      file: state.path,
      hint: 'run the command again; check the result with `memctx index --check` and `memctx lint`',
    });
  }
}

/**
 * Temporary files that a killed memctx process left behind: only names memctx makes (TEMP_PREFIX),
 * and only those older than the lock's stale time (a cache write runs outside the lock, so a young
 * one may belong to a live process). Users' files such as `notes.md.1` are never touched.
 */
function removeLeftoverTemps(root: string, now: number): void {
  try {
    const stale: string[] = [];
    walkTree(root, { dot: true }, (path, dirent) => {
      if (dirent.isFile() && basename(path).startsWith(TEMP_PREFIX)) stale.push(path);
    }, () => {});
    for (const path of stale) {
      const stat = lstatSync(join(root, path), { throwIfNoEntry: false });
      if (stat?.isFile() && stat.mtimeMs < now - LOCK_STALE_MS) rmSync(join(root, path), { force: true });
    }
  } catch {
    // best effort: a leftover temp file is clutter, not a problem
  }
}

/** Slack for clocks that disagree (a lock written from another machine on a shared disk). */
const FUTURE_SLACK_MS = 60_000;

/**
 * A lock dated in the future never goes stale, so waiting for it would only end in a timeout: say so
 * at once. (A copied or restored directory, or a clock set back, leaves such a lock.)
 */
function refuseFutureLock(path: string): void {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (stat === undefined || stat.mtimeMs <= Date.now() + FUTURE_SLACK_MS) return;
  throw new MemctxError(`the write lock is dated ${new Date(stat.mtimeMs).toISOString()}, in the future, so it would never expire`, {
    file: path,
    hint: `if no other memctx process is running, delete it (rm -r '${path.replace(/'/g, `'\\''`)}') and run the command again`,
  });
}

function lockError(path: string, err: NodeJS.ErrnoException, maxWaitMs?: number): MemctxError {
  if (err.code === 'ELOCKED') {
    const message = `another memctx process holds the memory directory's write lock${maxWaitMs === undefined ? '' : ` (waited ${maxWaitMs} ms)`}`;
    return new LockBusy(message, { file: path, hint: 'try again when it has finished; a lock whose process was stopped expires after 10 seconds without a refresh' });
  }
  return new MemctxError(`cannot take the write lock (${err.code ?? err.message})`, { file: path, hint: 'check that the memory directory is writable' });
}

/** Delete a memory file, checking first that its path still resolves inside the memory directory. */
export function removeMemoryFile(root: string, abs: string): void {
  assertLockHeld(root);
  assertStillInside(root, abs);
  unlinkSync(abs);
}

/**
 * Write a command's output file (`pack --out`, `compact --out`): a regular file only (a FIFO,
 * device, socket or directory is refused, never replaced), never inside the memory directory (also
 * not through a symbolic link), and into a folder that exists (none is created).
 */
export async function writeOutputFile(abs: string, text: string | readonly string[], options: { name: string; memoryRoot?: string }): Promise<void> {
  const fail = (why: string, hint: string) => new MemctxError(`--out ${why}; not written`, { file: options.name, hint });
  const parent = statSync(dirname(abs), { throwIfNoEntry: false });
  if (!parent?.isDirectory()) throw fail(`goes into ${dirname(abs)}, which does not exist`, 'create the folder first, or choose another path');
  const existing = statSync(abs, { throwIfNoEntry: false });
  if (existing && !existing.isFile()) throw fail(`is ${fileKind(existing)}, not a regular file`, 'to send the output to a pipe or device, leave out --out and redirect stdout (> PATH)');
  if (options.memoryRoot !== undefined) {
    const realRoot = realpathSync(options.memoryRoot);
    const real = join(realpathSync(dirname(abs)), basename(abs));
    const target = lstatSync(abs, { throwIfNoEntry: false })?.isSymbolicLink() ? realpathSync.native(abs) : real;
    for (const path of [real, target]) {
      if (isInside(realRoot, path)) {
        throw fail('is inside the memory directory, where it would be read as (or overwrite) a memory file', 'write it somewhere else, e.g. --out context.md');
      }
    }
  }
  // Output that every run writes afresh (a bundle, a report): atomic, but not forced to disk, as other tools write theirs.
  await writeFileAtomic(abs, text, { mkdir: false, fsync: false });
}
