/**
 * One git call started now and read later: a long `git log` (drift's history) runs beside lint's rules.
 * git writes to a file the caller gives (an unnamed scratch file in the state folder), not to a pipe:
 * this thread reads a pipe only between synchronous steps, so git would stall once it was full, and a
 * worker thread to drain it costs ~55 ms of CPU to start. The answer (or the error) is `git()`'s;
 * without a file, git runs here when the output is asked for.
 */
import { git, gitExecOptions, gitFailure, type Env } from './git.js';
import { readAt } from '../store/read-file.js';

export interface GitJob {
  /** git's stdout as text; rejects as `git()` throws (GitError, GitMissingError). */
  output(): Promise<string>;
  /** Resolves once git is gone (git is waited for: at most `timeoutMs`, then killed). Harmless after output(). */
  stop(): Promise<void>;
}

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  error?: NodeJS.ErrnoException;
}

/** git's answer once it has ended: its output, or `git()`'s error. */
function answerOf(args: string[], ended: Ended, stderr: string, output: number, timeoutMs: number | undefined): string {
  const { error, code, signal } = ended;
  if (error) throw gitFailure(args, { code: error.code, status: null, stderr: '', message: error.message }, timeoutMs);
  if (signal === 'SIGKILL' && timeoutMs !== undefined) throw gitFailure(args, { code: 'ETIMEDOUT', status: null, stderr, message: '' }, timeoutMs);
  if (code !== 0) throw gitFailure(args, { status: code, stderr, message: signal ? `killed by ${signal}` : '' }, timeoutMs);
  return readAt(output, 0, process.getBuiltinModule('node:fs').fstatSync(output).size).toString('utf8');
}

/**
 * Start `git ARGS` in cwd now, its stdout to the file `output` (a descriptor open for reading and
 * writing, at its start, closed here once git has ended); with `timeoutMs`, a git that takes longer is
 * killed. Without `output`, git runs when its output is asked for.
 */
export function gitInBackground(args: string[], cwd: string, env: Env, options: { timeoutMs?: number; output?: number } = {}): GitJob {
  const { timeoutMs, output } = options;
  if (output === undefined) return { output: async () => git(args, cwd, env, { timeoutMs }), stop: async () => undefined };
  const exec = gitExecOptions(cwd, env, { timeoutMs });
  // node:child_process on use: a module importing this one need not load it
  const child = process.getBuiltinModule('node:child_process').spawn('git', args, { cwd, env: exec.env, stdio: ['ignore', output, 'pipe'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const timer = timeoutMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const ended = new Promise<Ended>((resolve) => {
    child.once('error', (error: NodeJS.ErrnoException) => resolve({ code: null, signal: null, error }));
    child.once('close', (code, signal) => resolve({ code, signal }));
  }).finally(() => clearTimeout(timer));
  const answer = ended.then((end) => {
    try {
      return answerOf(args, end, stderr, output, timeoutMs);
    } finally {
      process.getBuiltinModule('node:fs').closeSync(output);
    }
  });
  // A job stopped before its output is asked for must not leave an unhandled rejection behind.
  answer.catch(() => undefined);
  return {
    output: () => answer,
    stop: async () => void (await ended),
  };
}
