import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { afterEach, describe, expect, it } from 'vitest';
import { MemctxError } from '../../../../src/kernel/errors.js';
import { withMemoryLock } from '../../../../src/kernel/store/write.js';
import { forgetStatePlaces, stateDir } from '../../../../src/kernel/state/folder.js';
import { removeDir, tempDir } from '../../../helpers/cli.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

describe('withMemoryLock', () => {
  it('turns a lock that cannot be taken into a MemctxError naming the lock file', async () => {
    const root = tempDir();
    dirs.push(root);
    const cache = join(root, 'cache-file');
    writeFileSync(cache, 'not a directory');
    let ran = false;
    const saved = { XDG_CACHE_HOME: process.env.XDG_CACHE_HOME, HOME: process.env.HOME };
    Object.assign(process.env, { XDG_CACHE_HOME: cache, HOME: cache });
    forgetStatePlaces();
    try {
      const result = withMemoryLock(root, async () => {
        ran = true;
      });
      await expect(result).rejects.toBeInstanceOf(MemctxError);
      await expect(result).rejects.toMatchObject({ file: root, message: `cannot keep the write lock: ${cache} is not a directory; cannot use ${cache}/.cache (ENOTDIR)` });
    } finally {
      Object.assign(process.env, saved);
      forgetStatePlaces();
    }
    expect(ran).toBe(false);
  });

  it('takes the lock folder with synchronous calls (no fs request left for the thread pool): on disk before the first await, gone after', async () => {
    const root = tempDir();
    dirs.push(root);
    const lockPath = join(stateDir(root, { always: true })!, 'lock');
    const fsRequests = () => process.getActiveResourcesInfo().filter((r) => r === 'FSReqCallback').length;
    let release = () => {};
    const gate = new Promise<void>((done) => (release = done));
    const before = fsRequests();
    const held = withMemoryLock(root, () => gate);
    expect(fsRequests()).toBe(before);
    expect(existsSync(lockPath)).toBe(true);
    release();
    await held;
    expect(existsSync(lockPath)).toBe(false);
  });

  it('serialises holders: a second one waits until the first has finished', async () => {
    const root = tempDir();
    dirs.push(root);
    const order: string[] = [];
    let second: Promise<void> | undefined;
    // The barrier: the second holder's try for the lock was refused (the same proper-lockfile, in this process).
    const lock = lockfile.lock;
    const refused = new Promise<void>((resolve) => {
      lockfile.lock = ((...args: Parameters<typeof lock>) => {
        const attempt = lock(...args);
        attempt.catch(() => resolve());
        return attempt;
      }) as typeof lock;
    });
    try {
      await withMemoryLock(root, async () => {
        order.push('first:start');
        second = withMemoryLock(root, async () => {
          order.push('second');
        });
        await refused;
        order.push('first:end');
      });
      await second;
    } finally {
      lockfile.lock = lock;
    }
    expect(order).toEqual(['first:start', 'first:end', 'second']);
  });
});
