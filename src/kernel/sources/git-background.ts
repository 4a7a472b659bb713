/**
 * One git call started now and read later: a long `git log` (drift's history) runs beside lint's rules.
 * git writes to a file the caller gives (an unnamed scratch file in the state folder), not to a pipe:
 * this thread reads a pipe only between synchronous steps, so git would stall once it was full, and a
 * worker thread to drain it costs ~55 ms of CPU to start. A caller may follow the file: whenever this
 * thread is free while git runs, what git has written is read in pieces of whole records (drift parses
 * the log while git still writes it). The answer (or the error) is `git()`'s; without a file, git runs
 * here when the output is asked for.
 */
import { git, gitExecOptions, gitFailure, type Env } from './git.js';
import { readAt } from '../store/read-file.js';

/** git's stdout given in pieces while git writes it: each piece ends before a `separator` byte (whole records), the rest once git has ended. */
interface Follow {
  separator: number;
  take(piece: string): void;
}

export interface GitJob {
  /** git's stdout as text; rejects as `git()` throws (GitError, GitMissingError). With `follow`, also in pieces as git writes it. */
  output(follow?: Follow): Promise<string>;
  /** Resolves once git is gone (git is waited for: at most `timeoutMs`, then killed). Harmless after output(). */
  stop(): Promise<void>;
}

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  error?: NodeJS.ErrnoException;
}

/** How often a followed output is read while git runs (only when this thread is free: a busy one reads once at its next await). */
const FOLLOW_MS = 4;

/** Throws `git()`'s error when git did not end well. */
function checkEnd(args: string[], ended: Ended, stderr: string, timeoutMs: number | undefined): void {
  const { error, code, signal } = ended;
  if (error) throw gitFailure(args, { code: error.code, status: null, stderr: '', message: error.message }, timeoutMs);
  if (signal === 'SIGKILL' && timeoutMs !== undefined) throw gitFailure(args, { code: 'ETIMEDOUT', status: null, stderr, message: '' }, timeoutMs);
  if (code !== 0) throw gitFailure(args, { status: code, stderr, message: signal ? `killed by ${signal}` : '' }, timeoutMs);
}

/** The file git writes, read in pieces: each read takes the bytes written since, up to the last separator (all of them at the end). */
function pieceReader(fd: number) {
  const pieces: string[] = [];
  let done = 0;
  let follow: Follow | undefined;
  const read = (all: boolean) => {
    const size = process.getBuiltinModule('node:fs').fstatSync(fd).size;
    if (size <= done) return;
    const bytes = readAt(fd, done, size - done);
    // a separator byte never falls inside a UTF-8 character: the piece decodes whole
    const cut = all || follow === undefined ? bytes.length : bytes.lastIndexOf(follow.separator);
    if (cut <= 0) return;
    const piece = bytes.toString('utf8', 0, cut);
    done += cut;
    pieces.push(piece);
    follow?.take(piece);
  };
  let failure: Error | undefined;
  return {
    /** What git has written so far, while it runs: a failure is kept for the answer. */
    readSoFar() {
      if (failure !== undefined) return;
      try {
        read(false);
      } catch (err) {
        failure = err as Error;
      }
    },
    /** The whole output, once git has ended. */
    readAll(): string {
      if (failure !== undefined) throw failure;
      read(true);
      return pieces.join('');
    },
    /** Follow from now on: the pieces read so far are given first. */
    follow(given: Follow) {
      follow = given;
      for (const piece of pieces) given.take(piece);
    },
  };
}

/**
 * Start `git ARGS` in cwd now, its stdout to the file `output` (a descriptor open for reading and
 * writing, at its start, closed here once git has ended); with `timeoutMs`, a git that takes longer is
 * killed. Without `output`, git runs when its output is asked for.
 */
export function gitInBackground(args: string[], cwd: string, env: Env, options: { timeoutMs?: number; output?: number } = {}): GitJob {
  const { timeoutMs, output } = options;
  if (output === undefined) return { output: async (follow) => inline(git(args, cwd, env, { timeoutMs }), follow), stop: async () => undefined };
  const exec = gitExecOptions(cwd, env, { timeoutMs });
  // node:child_process on use: a module importing this one need not load it
  const child = process.getBuiltinModule('node:child_process').spawn('git', args, { cwd, env: exec.env, stdio: ['ignore', output, 'pipe'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const timer = timeoutMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  let poll: NodeJS.Timeout | undefined;
  let over = false;
  const ended = new Promise<Ended>((resolve) => {
    child.once('error', (error: NodeJS.ErrnoException) => resolve({ code: null, signal: null, error }));
    child.once('close', (code, signal) => resolve({ code, signal }));
  }).finally(() => {
    over = true;
    clearTimeout(timer);
    clearInterval(poll);
  });
  const reader = pieceReader(output);
  const answer = ended.then((end) => {
    try {
      checkEnd(args, end, stderr, timeoutMs);
      return reader.readAll();
    } finally {
      process.getBuiltinModule('node:fs').closeSync(output);
    }
  });
  // A job stopped before its output is asked for must not leave an unhandled rejection behind.
  answer.catch(() => undefined);
  let following = false;
  return {
    output(follow) {
      if (follow && !following) {
        following = true;
        reader.follow(follow);
        if (!over) poll = setInterval(() => reader.readSoFar(), FOLLOW_MS);
      }
      return answer;
    },
    stop: async () => void (await ended),
  };
}

/** git's whole output as one piece, for a caller that follows it. */
function inline(text: string, follow: Follow | undefined): string {
  follow?.take(text);
  return text;
}

