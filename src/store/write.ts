import { lstatSync, mkdirSync, realpathSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { MemctxError } from '../errors.js';
import { assertStillInside, isInside } from './paths.js';
import { fileKind } from './read-file.js';
import { CACHE_DIR, MAX_FILE_BYTES } from './layout.js';
import { DecodeFailure, decodeText } from './decode.js';
import { walkTree } from './list.js';

/**
 * Write a file atomically (temporary file + rename), creating its directory; a MemctxError naming
 * the file when it cannot. With `inside` (the memory directory), the path is checked again right
 * before the folder is made and right before the write, so nothing lands outside it. `fsync: false`
 * for caches: a cache lost in a crash is rebuilt, and skipping the flush saves a disk round trip.
 */
export async function writeFileAtomic(abs: string, text: string | Buffer, options: { inside?: string; mkdir?: boolean; fsync?: boolean } = {}): Promise<void> {
  const { default: writeAtomic } = await import('write-file-atomic');
  try {
    if (options.inside !== undefined) {
      assertLockHeld(options.inside);
      assertStillInside(options.inside, abs);
    }
    if (options.mkdir !== false) mkdirSync(dirname(abs), { recursive: true });
    if (options.inside !== undefined) assertStillInside(options.inside, abs);
    await writeAtomic(abs, text, { fsync: options.fsync ?? true });
  } catch (err) {
    if (err instanceof MemctxError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTDIR') {
      throw new MemctxError('cannot create the file: a file stands where a folder of its path should be', { file: abs, hint: 'choose a path whose folders are not files' });
    }
    if (code === 'EISDIR') throw new MemctxError('cannot write the file: it is a directory', { file: abs, hint: 'choose another path' });
    if (code) throw new MemctxError(`cannot write the file (${code})`, { file: abs, hint: 'check the permissions and free space of the memory directory' });
    throw err;
  }
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

/**
 * Run fn while holding the memory directory's write lock (.memctx/lock), so that concurrent memctx
 * processes serialise their writes and index rebuilds.
 */
export async function withMemoryLock<T>(root: string, fn: () => Promise<T>): Promise<T> {
  const { default: lockfile } = await import('proper-lockfile');
  const cache = join(root, CACHE_DIR);
  const cacheStat = lstatSync(cache, { throwIfNoEntry: false });
  if (cacheStat?.isSymbolicLink()) {
    throw new MemctxError(`${CACHE_DIR} is a symbolic link; memctx keeps its lock there and will not write through it`, { file: cache, hint: `delete the link; ${CACHE_DIR}/ is recreated as needed` });
  }
  if (cacheStat && !cacheStat.isDirectory()) {
    throw new MemctxError(`${CACHE_DIR} is a file, not a directory: memctx keeps its write lock, caches and access counts in ${CACHE_DIR}/`, { file: cache, hint: `move or delete that file; memctx creates ${CACHE_DIR}/ again` });
  }
  let release: () => Promise<void>;
  const state: LockState = {};
  try {
    mkdirSync(cache, { recursive: true });
    // Refreshed every second; a pause longer than `stale` (Ctrl-Z, sleep, a long blocking scan) lets
    // another process take the lock: onCompromised records it and every later write refuses.
    const options = { lockfilePath: join(cache, 'lock'), realpath: false, stale: 10_000, update: 1_000, onCompromised: (err: Error) => (state.lost = err) };
    // Only a lock held by another process is worth waiting for: proper-lockfile retries every
    // error, so an unwritable directory (EACCES, EPERM, EROFS) would otherwise wait about 40 s.
    release = await lockfile.lock(root, { ...options, retries: 0 }).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ELOCKED') throw err;
      refuseFutureLock(options.lockfilePath);
      return lockfile.lock(root, { ...options, retries: { retries: 200, factor: 1.3, minTimeout: 10, maxTimeout: 200 } });
    });
  } catch (err) {
    if (err instanceof MemctxError) throw err;
    throw lockError(join(cache, 'lock'), err as NodeJS.ErrnoException);
  }
  const key = lockKey(root);
  HELD.set(key, state);
  removeLeftoverTemps(root);
  try {
    const value = await fn();
    assertLockHeld(root);
    return value;
  } finally {
    HELD.delete(key);
    await release().catch(() => undefined);
  }
}

interface LockState {
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
      file: join(root, CACHE_DIR, 'lock'),
      hint: 'run the command again; check the result with `memctx index --check` and `memctx lint`',
    });
  }
}

/**
 * Temporary files of an atomic write (`NAME.md.<number>`, write-file-atomic's naming) that a killed
 * process left behind. Under the lock no other writer is active, so any that exist are stale.
 */
function removeLeftoverTemps(root: string): void {
  try {
    const stale: string[] = [];
    walkTree(root, { dot: true }, (path, dirent) => {
      const inCache = path.startsWith(`${CACHE_DIR}/`) && !path.includes('/', CACHE_DIR.length + 1);
      if (dirent.isFile() && (/\.md\.[0-9]+$/.test(path) || (inCache && /\.json\.[0-9]+$/.test(path)))) stale.push(path);
    }, () => {});
    for (const path of stale) rmSync(join(root, path), { force: true });
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

function lockError(path: string, err: NodeJS.ErrnoException): MemctxError {
  if (err.code === 'ELOCKED') {
    return new MemctxError('another memctx process holds the memory directory\'s write lock', { file: path, hint: 'try again when it has finished; a lock left by a crashed process expires after 10 seconds' });
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
export async function writeOutputFile(abs: string, text: string, options: { name: string; memoryRoot?: string }): Promise<void> {
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
      if (isInside(realRoot, path) && !isInside(join(realRoot, CACHE_DIR), path)) {
        throw fail('is inside the memory directory, where it would be read as (or overwrite) a memory file', 'write it somewhere else, e.g. --out context.md');
      }
    }
  }
  // Output that every run writes afresh (a bundle, a report): atomic, but not forced to disk, as other tools write theirs.
  await writeFileAtomic(abs, text, { mkdir: false, fsync: false });
}
