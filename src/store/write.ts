import { lstatSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MemctxError } from './errors.js';
import { CACHE_DIR, MAX_FILE_BYTES } from './layout.js';
import { DecodeFailure, decodeText } from './decode.js';

/** Write a file atomically (temporary file + rename), creating its directory; a MemctxError naming the file when it cannot. */
export async function writeFileAtomic(abs: string, text: string | Buffer): Promise<void> {
  const { default: writeAtomic } = await import('write-file-atomic');
  try {
    mkdirSync(dirname(abs), { recursive: true });
    await writeAtomic(abs, text, { fsync: true });
  } catch (err) {
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
export async function writeMemoryFile(abs: string, rel: string, text: string): Promise<void> {
  checkMemoryText(rel, text);
  await writeFileAtomic(abs, text);
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
  try {
    mkdirSync(cache, { recursive: true });
    const options = { lockfilePath: join(cache, 'lock'), realpath: false, stale: 10_000 };
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
  try {
    return await fn();
  } finally {
    await release();
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
