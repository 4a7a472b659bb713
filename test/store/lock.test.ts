import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MemctxError } from '../../src/errors.js';
import { withMemoryLock } from '../../src/store/write.js';
import { removeDir, tempDir } from '../helpers/cli.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

describe('withMemoryLock', () => {
  it('turns a lock that cannot be taken into a MemctxError naming the lock file', async () => {
    const root = tempDir();
    dirs.push(root);
    writeFileSync(join(root, '.memctx'), 'not a directory');
    let ran = false;
    const result = withMemoryLock(root, async () => {
      ran = true;
    });
    await expect(result).rejects.toBeInstanceOf(MemctxError);
    await expect(result).rejects.toMatchObject({ file: join(root, '.memctx'), message: expect.stringMatching(/^\.memctx is a file, not a directory/) });
    expect(ran).toBe(false);
  });

  it('serialises holders: a second one waits until the first has finished', async () => {
    const root = tempDir();
    dirs.push(root);
    const order: string[] = [];
    let second: Promise<void> | undefined;
    await withMemoryLock(root, async () => {
      order.push('first:start');
      second = withMemoryLock(root, async () => {
        order.push('second');
      });
      await new Promise((resolve) => setTimeout(resolve, 150));
      order.push('first:end');
    });
    await second;
    expect(order).toEqual(['first:start', 'first:end', 'second']);
  });
});
