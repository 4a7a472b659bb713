/**
 * The write lock against a holder that was killed or stopped (issue 20, item 7), and the hook's
 * bounded waits. The holders are real processes (the built store module); SIGKILL and SIGSTOP are
 * sent at a known point (after the child says it holds the lock).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, watch, writeFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { hostname } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO, removeDir, tempDir, stateOf } from '../../../helpers/cli.js';
import { runMemctx } from '../../../helpers/run.js';
import { main } from '../../../../src/main.js';
import { assertLockHeld, LockBusy, withMemoryLock } from '../../../../src/kernel/store/write.js';
import { flushHook } from '../../../../src/commands/flush/flush.js';
import { hookRequest } from '../../../../src/commands/flush/hook.js';
import { readStdin } from '../../../../src/kernel/cli/input.js';

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGCONT');
      child.kill('SIGKILL');
    }
  }
  dirs.splice(0).forEach(removeDir);
});

function project() {
  const cwd = tempDir();
  dirs.push(cwd);
  const root = join(cwd, '.memory');
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'MEMORY.md'), '<!-- memctx:begin -->\n<!-- memctx:end -->\n');
  return { cwd, root };
}

/** A process that takes the memory lock, says so, and then holds it forever. */
async function holder(root: string): Promise<ChildProcess> {
  const store = join(REPO, 'dist/src/kernel/store/write.js');
  const code = `import(${JSON.stringify(store)}).then((m) => m.withMemoryLock(${JSON.stringify(root)}, () => { process.stdout.write('locked\\n'); setInterval(() => {}, 1000); return new Promise(() => {}); }))`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('locked') && resolve());
    child.on('exit', (c) => reject(new Error(`holder exited (${c})`)));
  });
  return child;
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGKILL');
  await exited; // reaped: its pid is no longer alive
}

/**
 * Resolves once the lock folder was refreshed `count` times: each refresh sets the folder's times,
 * which fs.watch reports as an event on the folder itself. (A refresh that found the lock taken
 * over sets nothing, and the test runs into its timeout.)
 */
function refreshes(lock: string, count: number): Promise<void> {
  return new Promise((resolve) => {
    let seen = 0;
    const watcher = watch(lock, (_event, name) => {
      if (name !== basename(lock) || ++seen < count) return;
      watcher.close();
      resolve();
    });
  });
}

const hookInput = (cwd: string) => JSON.stringify({ session_id: 'sess-9', cwd, hook_event_name: 'SessionEnd', reason: 'exit' });
const runHook = (cwd: string) => runMemctx(['flush', '--hook', '--goal', 'Keep the summary'], { cwd, input: hookInput(cwd) });
/** flush --hook's use case with waits of 0.3 s (the command's are 3 s for the lock and 2 s for stdin). */
const SHORT_WAITS = { stdinMs: 300, lockMs: 300 };
function hookWithShortWaits(cwd: string, stdin: (maxBytes?: number, timeoutMs?: number) => Promise<string> = async () => hookInput(cwd)) {
  return flushHook({ ...hookRequest(), goal: 'Keep the summary' }, { cwd, env: { NO_COLOR: '1' }, home: '/nonexistent-home', now: () => new Date(), readStdin: stdin, hookWaits: SHORT_WAITS });
}
const sessions = (root: string) => (existsSync(join(root, 'sessions')) ? readdirSync(join(root, 'sessions')) : []);

describe('the lock of a live holder', () => {
  it('stays held across refreshes (recording its owner does not make it look taken over)', async () => {
    const { root } = project();
    // Past two refreshes (one a second): proper-lockfile compares the folder's mtime with its own.
    await withMemoryLock(root, async () => {
      await refreshes(join(stateOf(root), 'lock'), 2);
      expect(() => assertLockHeld(root)).not.toThrow();
    });
  });
});

describe('a lock not refreshed for the stale time', () => {
  it('is taken, owner file and all, even when its recorded holder is alive', async () => {
    const { root } = project();
    const lock = join(stateOf(root), 'lock');
    mkdirSync(lock);
    // pid 1 is alive: only the lock's age frees it.
    writeFileSync(join(lock, 'owner'), JSON.stringify({ pid: 1, host: hostname() }));
    const old = new Date(Date.now() - 20_000);
    utimesSync(lock, old, old);
    await expect(withMemoryLock(root, async () => JSON.parse(readFileSync(join(lock, 'owner'), 'utf8')).pid, { maxWaitMs: 0 })).resolves.toBe(process.pid);
  });
});

describe('a lock whose holder was killed', () => {
  it('is taken at once, even while it still looks fresh (no wait for the stale time)', async () => {
    const { root } = project();
    await kill(await holder(root));
    // The dead lock is dated 50 s ahead: it would not go stale within any wait; only its dead owner frees it.
    const ahead = new Date(Date.now() + 50_000);
    utimesSync(join(stateOf(root), 'lock'), ahead, ahead);
    await expect(withMemoryLock(root, async () => 'ran', { maxWaitMs: 0 })).resolves.toBe('ran');
    expect(existsSync(join(stateOf(root), 'lock'))).toBe(false);
  });

  it('flush --hook right after a SIGKILLed writer writes the session', async () => {
    const { cwd, root } = project();
    await kill(await holder(root));
    const ahead = new Date(Date.now() + 50_000);
    utimesSync(join(stateOf(root), 'lock'), ahead, ahead);
    expect((await runHook(cwd)).code).toBe(0);
    expect(sessions(root)).toHaveLength(1);
    expect(readFileSync(join(stateOf(root), 'flush.log'), 'utf8')).toMatch(/SessionEnd\(exit\) session=sess-9 wrote sessions\//);
  });
});

describe('a lock whose holder is alive but stopped (SIGSTOP)', () => {
  it('is respected: a bounded wait ends in LockBusy and the lock still names the holder', async () => {
    const { root } = project();
    const child = await holder(root);
    child.kill('SIGSTOP');
    await expect(withMemoryLock(root, async () => 'ran', { maxWaitMs: 300 })).rejects.toBeInstanceOf(LockBusy);
    expect(JSON.parse(readFileSync(join(stateOf(root), 'lock', 'owner'), 'utf8')).pid).toBe(child.pid);
  });

  it('a pending summary is folded in by `memctx index` too', async () => {
    const { cwd, root } = project();
    const child = await holder(root);
    child.kill('SIGSTOP');
    const result = await hookWithShortWaits(cwd);
    expect(result.error).toBeUndefined();
    expect(result.outcome?.path).toMatch(/^.*\/pending\/[^/]+\.json$/);
    await kill(child);
    expect((await runMemctx(['index'], { cwd })).code).toBe(0);
    expect(sessions(root)).toHaveLength(1);
    expect(readFileSync(join(root, 'MEMORY.md'), 'utf8')).toContain(`sessions/${sessions(root)[0]}`);
  });

  it('flush --hook gives up on the lock after its wait, keeps the summary in the state folder\'s pending/, fails nothing, and the next write folds it in', async () => {
    const { cwd, root } = project();
    const child = await holder(root);
    child.kill('SIGSTOP');
    const result = await hookWithShortWaits(cwd);
    expect(result.error).toBeUndefined();
    expect(sessions(root)).toEqual([]);
    const pending = readdirSync(join(stateOf(root), 'pending'));
    expect(pending).toHaveLength(1);
    const note = `the memory directory stayed locked by another memctx process for 0.3 s; the summary is kept in ${join(stateOf(root), 'pending', pending[0])} and written by the next memctx write`;
    expect(result.outcome?.notes).toEqual([note]);
    expect(readFileSync(join(stateOf(root), 'flush.log'), 'utf8')).toContain(note);
    await kill(child);
    const add = await runMemctx(['add', 'n.md', '--name', 'n', '--description', 'd', '--type', 'user'], { cwd });
    expect(add.code).toBe(0);
    expect(sessions(root)).toHaveLength(1);
    expect(readFileSync(join(root, 'sessions', sessions(root)[0]), 'utf8')).toContain('Keep the summary');
    expect(existsSync(join(stateOf(root), 'pending'))).toBe(false);
    expect(readFileSync(join(root, 'MEMORY.md'), 'utf8')).toContain(`sessions/${sessions(root)[0]}`);
  });
});

describe('flush --hook with a stdin that is never closed', () => {
  it('gives up after its wait, fails nothing and logs a line', async () => {
    const { cwd, root } = project();
    const stdin = Object.assign(new PassThrough(), { isTTY: false });
    stdin.write('{"session_id": "s"');
    const result = await hookWithShortWaits(cwd, (maxBytes, timeoutMs) => readStdin(stdin, maxBytes, timeoutMs));
    expect(result.error?.message).toBe('stdin: stdin was not closed within 0.3 s; not read (the program running memctx must close its end of the pipe)');
    expect(result.logged).toBe(true);
    expect(readFileSync(join(stateOf(root), 'flush.log'), 'utf8')).toContain('stdin was not closed within 0.3 s');
    expect(stdin.destroyed).toBe(true);
  });
});

describe('checkpoint with a stdin that is never closed', () => {
  it('gives up after the same bounded wait as flush --hook and exits 0 with a note', async () => {
    const { cwd } = project();
    const stdin = Object.assign(new PassThrough(), { isTTY: false });
    stdin.write('{"session_id": "s"');
    let stderr = '';
    let stdout = '';
    const io = {
      stdout: { write: (t: string) => ((stdout += t), true), isTTY: false },
      stderr: { write: (t: string) => ((stderr += t), true), isTTY: false },
      stdin,
      cwd,
      env: { NO_COLOR: '1' },
      home: '/nonexistent-home',
      now: () => new Date(),
    };
    // Without the deadline main never returns and the test's own timeout fails it (bench hardening times the real process).
    expect(await main(['node', 'memctx', 'checkpoint'], io)).toBe(0);
    expect(stdout).toBe('');
    expect(stderr).toContain('stdin was not closed within 2 s; not read');
    expect(stdin.destroyed).toBe(true);
  }, 8000);
});

describe('a lock whose owner cannot be trusted (issue 30, item 8)', () => {
  /** A lock folder with `owner` (or none), last refreshed `at`. */
  function lockWith(root: string, owner: string | undefined, at: Date): string {
    const lock = join(stateOf(root), 'lock');
    mkdirSync(lock);
    if (owner !== undefined) writeFileSync(join(lock, 'owner'), owner);
    utimesSync(lock, at, at);
    return lock;
  }
  const startOf = (pid: number) => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  };

  it('with no owner file and older than the 2 s grace, is taken at once', async () => {
    const { root } = project();
    lockWith(root, undefined, new Date(Date.now() - 3_000));
    await expect(withMemoryLock(root, async () => 'ran', { maxWaitMs: 0 })).resolves.toBe('ran');
  });

  it('with a corrupt owner file and older than the grace, is taken at once', async () => {
    const { root } = project();
    lockWith(root, '{"pid": ', new Date(Date.now() - 3_000));
    await expect(withMemoryLock(root, async () => 'ran', { maxWaitMs: 0 })).resolves.toBe('ran');
  });

  it('with no owner file but just refreshed, is respected (its holder may be writing the owner)', async () => {
    const { root } = project();
    lockWith(root, undefined, new Date());
    await expect(withMemoryLock(root, async () => 'ran', { maxWaitMs: 300 })).rejects.toBeInstanceOf(LockBusy);
  });

  it('from another host is respected until stale by its mtime, then taken', async () => {
    const { root } = project();
    const lock = lockWith(root, JSON.stringify({ pid: process.ppid, host: 'elsewhere.example' }), new Date(Date.now() - 3_000));
    await expect(withMemoryLock(root, async () => 'ran', { maxWaitMs: 0 })).rejects.toBeInstanceOf(LockBusy);
    const old = new Date(Date.now() - 20_000);
    utimesSync(lock, old, old);
    await expect(withMemoryLock(root, async () => 'ran', { maxWaitMs: 0 })).resolves.toBe('ran');
  });

  it.skipIf(!existsSync('/proc/self/stat'))('holding a reused pid (alive, but started at another time) is taken at once', async () => {
    const { root } = project();
    lockWith(root, JSON.stringify({ pid: process.ppid, host: hostname(), start: '1' }), new Date());
    await expect(withMemoryLock(root, async () => 'ran', { maxWaitMs: 0 })).resolves.toBe('ran');
  });

  it.skipIf(!existsSync('/proc/self/stat'))('holding a live pid with its own start time is respected; the owner memctx writes records it', async () => {
    const { root } = project();
    lockWith(root, JSON.stringify({ pid: process.ppid, host: hostname(), start: startOf(process.ppid) }), new Date());
    await expect(withMemoryLock(root, async () => 'ran', { maxWaitMs: 300 })).rejects.toBeInstanceOf(LockBusy);
    const other = project();
    const owner = await withMemoryLock(other.root, async () => JSON.parse(readFileSync(join(stateOf(other.root), 'lock', 'owner'), 'utf8')));
    expect(owner).toEqual({ pid: process.pid, host: hostname(), start: startOf(process.pid) });
  });
});
