import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, fstatSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { removeDir, tempDir, stateOf } from '../../helpers/cli.js';
import { runMemctx } from '../../helpers/run.js';
import { assertLockHeld, openScratchFile, withMemoryLock, writeFileAtomic } from '../../../src/kernel/store/write.js';
import { readAt } from '../../../src/kernel/store/read-file.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

function memoryDir(): { cwd: string; root: string; outside: string } {
  const cwd = tempDir();
  dirs.push(cwd);
  const root = join(cwd, '.memory');
  mkdirSync(join(root, 'sub'), { recursive: true });
  mkdirSync(join(root, '.memctx'));
  writeFileSync(join(root, 'MEMORY.md'), '# Memory\n');
  const outside = join(cwd, 'outside');
  mkdirSync(outside);
  return { cwd, root, outside };
}

const note = (name: string, extra = '') => `---\nname: ${name}\ndescription: about ${name}\ntype: project\n${extra}---\nbody\n`;
/**
 * Hold the memory lock, run the command, swap sub/ for a link to outside while it waits, release.
 * The barrier is the command's first try for the lock (memctx runs in this process and calls the same
 * proper-lockfile): by then it has checked the path once, and it re-checks only once it holds the lock.
 */
async function swapWhileWaiting(root: string, outside: string, args: string[], cwd: string) {
  const release = await lockfile.lock(root, { lockfilePath: join(stateOf(root), 'lock'), realpath: false, stale: 10_000 });
  const lock = lockfile.lock;
  let running: ReturnType<typeof runMemctx>;
  try {
    await new Promise<void>((tried) => {
      lockfile.lock = ((dir: string, ...rest: unknown[]) => {
        if (dir === root) tried();
        return (lock as (...a: unknown[]) => Promise<() => Promise<void>>)(dir, ...rest);
      }) as typeof lock;
      running = runMemctx(args, { cwd });
    });
  } finally {
    lockfile.lock = lock;
  }
  renameSync(join(root, 'sub'), join(root, 'sub-was'));
  symlinkSync(outside, join(root, 'sub'));
  await release();
  return running!;
}

describe('writes never leave the memory directory', () => {
  it('add re-checks the path after taking the lock: a folder swapped for a symlink is refused', async () => {
    const { cwd, root, outside } = memoryDir();
    const result = await swapWhileWaiting(root, outside, ['add', 'sub/x.md', '--name', 'x', '--description', 'd', '--type', 'user'], cwd);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/outside the memory directory/);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('rm and edit re-check too: the file outside is neither deleted nor changed', async () => {
    const { cwd, root, outside } = memoryDir();
    writeFileSync(join(root, 'sub', 'x.md'), note('x'));
    writeFileSync(join(outside, 'x.md'), note('outside'));
    const rm = await swapWhileWaiting(root, outside, ['rm', 'sub/x.md'], cwd);
    expect(rm.code).toBe(2);
    expect(readFileSync(join(outside, 'x.md'), 'utf8')).toBe(note('outside'));
    rmSync(join(root, 'sub'));
    renameSync(join(root, 'sub-was'), join(root, 'sub'));
    const edit = await swapWhileWaiting(root, outside, ['edit', 'sub/x.md', '--old', 'body', '--new', 'changed'], cwd);
    expect(edit.code).toBe(2);
    expect(readFileSync(join(outside, 'x.md'), 'utf8')).toBe(note('outside'));
  });

  it('pack --out and compact --out write only regular files outside the memory directory, in folders that exist', async () => {
    const { cwd, root } = memoryDir();
    writeFileSync(join(root, 'a.md'), note('a'));
    writeFileSync(join(cwd, 't.txt'), 'hello\n');
    execFileSync('mkfifo', [join(cwd, 'fifo')]);
    symlinkSync(join(root, 'a.md'), join(cwd, 'link.md'));
    for (const command of [['pack'], ['compact', 't.txt']]) {
      const fifo = await runMemctx([...command, '--out', 'fifo'], { cwd });
      expect(fifo.code).toBe(2);
      expect(fifo.stderr).toContain('--out is a FIFO (named pipe), not a regular file; not written');
      const link = await runMemctx([...command, '--out', 'link.md'], { cwd });
      expect(link.code).toBe(2);
      expect(link.stderr).toContain('is inside the memory directory');
      expect(readFileSync(join(root, 'a.md'), 'utf8')).toBe(note('a'));
      const deep = await runMemctx([...command, '--out', 'no/such/dir/out.md'], { cwd });
      expect(deep.code).toBe(2);
      expect(existsSync(join(cwd, 'no'))).toBe(false);
      const inside = await runMemctx([...command, '--out', '.memory/out.md'], { cwd });
      expect(inside.code).toBe(2);
      expect(existsSync(join(root, 'out.md'))).toBe(false);
    }
    expect((await runMemctx(['compact', 't.txt', '--out', 'ok.md'], { cwd })).code).toBe(0);
    expect(existsSync(join(cwd, 'ok.md'))).toBe(true);
  });
});

describe('crashes and pauses leave nothing broken', () => {
  it('mv killed between link and unlink is finished by running it again', async () => {
    const { cwd, root } = memoryDir();
    writeFileSync(join(root, 'a.md'), note('a'));
    linkSync(join(root, 'a.md'), join(root, 'b.md'));
    const result = await runMemctx(['mv', 'a.md', 'b.md'], { cwd });
    expect(result.code).toBe(0);
    expect(existsSync(join(root, 'a.md'))).toBe(false);
    expect(readFileSync(join(root, 'b.md'), 'utf8')).toContain('name: a');
  });

  it('gc --apply killed between link and unlink is finished by running it again', async () => {
    const { cwd, root } = memoryDir();
    writeFileSync(join(root, 'old.md'), note('old', 'expires: 2020-01-01\nupdated: 2020-01-01\n'));
    mkdirSync(join(root, 'archive'));
    linkSync(join(root, 'old.md'), join(root, 'archive', 'old.md'));
    const result = await runMemctx(['gc', '--apply'], { cwd });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(existsSync(join(root, 'old.md'))).toBe(false);
    expect(existsSync(join(root, 'archive', 'old.md'))).toBe(true);
  });

  it('temporary files left by a killed write are removed by the next writer; users\' numbered files are not', async () => {
    const { cwd, root } = memoryDir();
    mkdirSync(join(root, 'attachments'));
    const users = ['notes.md.1', 'design.md.20240101', 'attachments/report.md.2'];
    for (const p of users) writeFileSync(join(root, p), 'the user\'s');
    const old = new Date(Date.now() - 60_000);
    for (const p of ['.memctx-tmp-123-abcdef', 'sub/.memctx-tmp-9-0a0a']) {
      writeFileSync(join(root, p), 'half');
      utimesSync(join(root, p), old, old);
    }
    expect((await runMemctx(['add', 'n.md', '--name', 'n', '--description', 'd', '--type', 'user'], { cwd })).code).toBe(0);
    expect(existsSync(join(root, '.memctx-tmp-123-abcdef'))).toBe(false);
    expect(existsSync(join(root, 'sub', '.memctx-tmp-9-0a0a'))).toBe(false);
    expect(users.map((p) => readFileSync(join(root, p), 'utf8'))).toEqual(users.map(() => 'the user\'s'));
  });

  it('a holder that lost its lock during a pause stops before its next write, with a clear error', async () => {
    const { root } = memoryDir();
    const attempt = withMemoryLock(root, async () => {
      // Another process found the lock stale and took it over: the lock directory is gone.
      rmSync(join(stateOf(root), 'lock'), { recursive: true, force: true });
      // Wait (up to 5 s) for the lock's next refresh, about a second away, to notice.
      await vi.waitFor(() => expect(() => assertLockHeld(root)).toThrow(), { timeout: 5_000, interval: 50 });
      await writeFileAtomic(join(root, 'late.md'), note('late'), { inside: root });
    });
    await expect(attempt).rejects.toThrow('the write lock was lost while this command was paused');
    expect(existsSync(join(root, 'late.md'))).toBe(false);
  });
});

describe('openScratchFile', () => {
  it('gives a file with no name left in the folder, this user\'s only, read back as written; undefined where none can be made', () => {
    const dir = tempDir();
    dirs.push(dir);
    const fd = openScratchFile(dir)!;
    try {
      expect(readdirSync(dir)).toEqual([]);
      expect(fstatSync(fd).mode & 0o777).toBe(0o600);
      writeSync(fd, 'a git log');
      expect(readAt(fd, 0, 9).toString()).toBe('a git log');
    } finally {
      closeSync(fd);
    }
    expect(openScratchFile(join(dir, 'missing'))).toBeUndefined();
  });
});
