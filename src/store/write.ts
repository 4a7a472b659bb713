import { lstatSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MemctxError } from './errors.js';
import { CACHE_DIR } from './layout.js';

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
 * Run fn while holding the memory directory's write lock (.memctx/lock), so that concurrent memctx
 * processes serialise their writes and index rebuilds.
 */
export async function withMemoryLock<T>(root: string, fn: () => Promise<T>): Promise<T> {
  const { default: lockfile } = await import('proper-lockfile');
  const cache = join(root, CACHE_DIR);
  if (lstatSync(cache, { throwIfNoEntry: false })?.isSymbolicLink()) {
    throw new MemctxError(`${CACHE_DIR} is a symbolic link; memctx keeps its lock there and will not write through it`, { file: cache, hint: `delete the link; ${CACHE_DIR}/ is recreated as needed` });
  }
  let release: () => Promise<void>;
  try {
    mkdirSync(cache, { recursive: true });
    const options = { lockfilePath: join(cache, 'lock'), realpath: false, stale: 10_000 };
    // Only a lock held by another process is worth waiting for: proper-lockfile retries every
    // error, so an unwritable directory (EACCES, EPERM, EROFS) would otherwise wait about 40 s.
    release = await lockfile.lock(root, { ...options, retries: 0 }).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ELOCKED') throw err;
      return lockfile.lock(root, { ...options, retries: { retries: 200, factor: 1.3, minTimeout: 10, maxTimeout: 200 } });
    });
  } catch (err) {
    throw lockError(join(cache, 'lock'), err as NodeJS.ErrnoException);
  }
  try {
    return await fn();
  } finally {
    await release();
  }
}

function lockError(path: string, err: NodeJS.ErrnoException): MemctxError {
  if (err.code === 'ELOCKED') {
    return new MemctxError('another memctx process holds the memory directory\'s write lock', { file: path, hint: 'try again when it has finished; a lock left by a crashed process expires after 10 seconds' });
  }
  return new MemctxError(`cannot take the write lock (${err.code ?? err.message})`, { file: path, hint: 'check that the memory directory is writable' });
}
