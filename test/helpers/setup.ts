import { accessSync, constants, mkdtempSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { removeTempDirs } from './cli.js';

// Temporary folders in memory (tmpfs) when the machine has one with room: the suite makes thousands of
// files and git repositories, and a disk's file system spends several times as long on each (a 100 MB
// transcript is the largest file a test writes). TMPDIR set by the caller is kept.
if (process.env.TMPDIR === undefined && roomy('/dev/shm')) process.env.TMPDIR = '/dev/shm';

/** A writable folder with at least 2 GB free. */
function roomy(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    const { bavail, bsize } = statfsSync(dir);
    return bavail * bsize >= 2 ** 31;
  } catch {
    return false;
  }
}

// Machine state outside git goes to the per-user cache folder: the tests' own, never the user's ~/.cache.
process.env.XDG_CACHE_HOME ??= mkdtempSync(join(tmpdir(), 'memctx-test-cache-'));

// Every node a test starts (the bin, a hook, a merge driver) would read this certificate file first,
// about as long as starting node itself takes; no test reaches the network.
delete process.env.NODE_EXTRA_CA_CERTS;

// No test file leaves temporary directories behind.
afterAll(removeTempDirs);
