import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runMemctx } from '../helpers/run.js';
import { memctx, removeDir, tempDir, stateOf } from '../helpers/cli.js';

describe('clear messages for the remaining confusing cases', () => {
  let root: string;
  let dir: string;
  const add = ['add', 'a', '--name', 'A', '--description', 'd', '--type', 'user', '--body', 'b'];
  beforeEach(async () => {
    root = tempDir();
    dir = join(root, '.memory');
    expect((await runMemctx(['init'], { cwd: root })).code).toBe(0);
  });
  afterEach(() => removeDir(root));

  it('a per-user cache folder that is a file (no place for the write lock)', () => {
    const cache = join(root, 'cache-file');
    writeFileSync(cache, 'oops\n');
    const r = memctx(add, { cwd: root, env: { XDG_CACHE_HOME: cache, HOME: cache } });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `memctx: error: ${dir}: cannot keep the write lock: ${cache} is not a directory; cannot use ${cache}/.cache (ENOTDIR)\n  hint: memctx keeps its lock in the git directory (.git/memctx/) or, outside git, in $XDG_CACHE_HOME/memctx/: make that folder writable and yours\n`,
    );
    expect(existsSync(join(dir, 'a.md'))).toBe(false);
  });

  it('a future-dated lock is reported at once, with what to do', async () => {
    const lock = join(stateOf(dir), 'lock');
    mkdirSync(lock, { recursive: true });
    const future = new Date(Date.now() + 3_600_000);
    utimesSync(lock, future, future);
    // "At once" without a clock: this message comes only from the first try for the lock (store/write.ts).
    const r = await runMemctx(add, { cwd: root });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the write lock is dated ');
    expect(r.stderr).toContain('in the future, so it would never expire');
    expect(r.stderr).toContain(`hint: if no other memctx process is running, delete it (rm -r '${lock}') and run the command again`);
  });
});
