/**
 * One git call run on a worker thread while this thread goes on: a long `git log` (drift's history)
 * overlaps lint's rules. On this thread a child's output pipe is drained only between synchronous
 * steps, so git would stall once the pipe is full; the worker drains it. The answer (or the error) is
 * `git()`'s; when no worker can start, git runs here when the output is asked for.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { git, gitExecOptions, GitError, gitFailure, type Env } from './git.js';

export interface GitJob {
  /** git's stdout as text; rejects as `git()` throws (GitError, GitMissingError). */
  output(): Promise<string>;
  /** Resolves once git and the worker are gone (git is waited for: at most `timeoutMs`, then killed). Harmless after output(). */
  stop(): Promise<void>;
}

interface Answer {
  out?: string;
  error?: { code?: string | number; status?: number | null; signal?: string | null; stderr: string; message: string };
}

// CommonJS on the worker. A synchronous call: git flushes its log once per commit, and a stream would
// wake JavaScript once per flush (thousands of times); the worker has nothing else to do meanwhile.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { execFileSync } = require('node:child_process');
const { args, options } = workerData;
let answer;
try {
  answer = { out: execFileSync('git', args, options).toString('utf8') };
} catch (err) {
  answer = { error: { code: err.code, status: err.status, signal: err.signal, stderr: err.stderr ? err.stderr.toString('utf8') : '', message: err.message } };
}
parentPort.postMessage(answer);
`;

/**
 * Start `git ARGS` in cwd on a worker thread; with `timeoutMs`, a git that takes longer is killed. With
 * one processor (`cores`, default the machine's) nothing can overlap: git runs here, when its output is asked for.
 */
export function gitInBackground(args: string[], cwd: string, env: Env, options: { timeoutMs?: number; cores?: number } = {}): GitJob {
  const inline: GitJob = { output: async () => git(args, cwd, env, { timeoutMs: options.timeoutMs }), stop: async () => undefined };
  if ((options.cores ?? availableParallelism()) < 2) return inline;
  let worker: Worker | undefined;
  try {
    // node:worker_threads on use: a module importing this one (flush's headCommit) need not load it
    const { Worker } = process.getBuiltinModule('node:worker_threads');
    worker = new Worker(WORKER, { eval: true, workerData: { args, options: gitExecOptions(cwd, env, { timeoutMs: options.timeoutMs }) }, stdout: false, stderr: false });
  } catch {
    return inline;
  }
  const running = worker;
  const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
  const answer = new Promise<string>((resolve, reject) => {
    running.once('message', (m: Answer) => (m.error ? reject(gitFailure(args, m.error, options.timeoutMs)) : resolve(m.out ?? '')));
    running.once('error', reject);
    running.once('exit', () => reject(new GitError(args, null, 'the worker running git ended without an answer')));
  });
  // A job stopped before its output is asked for must not leave an unhandled rejection behind.
  answer.catch(() => undefined);
  return {
    output: () => answer,
    stop: () => exited,
  };
}
