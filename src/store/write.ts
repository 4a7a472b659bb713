import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CACHE_DIR } from './scan.js';

/** Write a file atomically (temporary file + rename), creating its directory. */
export async function writeFileAtomic(abs: string, text: string | Buffer): Promise<void> {
  const { default: writeAtomic } = await import('write-file-atomic');
  mkdirSync(dirname(abs), { recursive: true });
  await writeAtomic(abs, text, { fsync: true });
}

/**
 * Run fn while holding the memory directory's write lock (.memctx/lock), so that concurrent memctx
 * processes serialise their writes and index rebuilds.
 */
export async function withMemoryLock<T>(root: string, fn: () => Promise<T>): Promise<T> {
  const { default: lockfile } = await import('proper-lockfile');
  const cache = join(root, CACHE_DIR);
  mkdirSync(cache, { recursive: true });
  const release = await lockfile.lock(root, {
    lockfilePath: join(cache, 'lock'),
    realpath: false,
    stale: 10_000,
    retries: { retries: 200, factor: 1.3, minTimeout: 10, maxTimeout: 200 },
  });
  try {
    return await fn();
  } finally {
    await release();
  }
}
