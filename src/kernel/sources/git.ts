/** The one git runner (hooks, `flush --git`, lint's repository listing), and `flush --git`'s changes. */
import type { Stats } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { MemctxError } from '../errors.js';
const { existsSync, lstatSync, readFileSync, statSync } = process.getBuiltinModule('node:fs');

export type Env = Record<string, string | undefined>;

/** git failed: its exit status and what it said on stderr. */
export class GitError extends MemctxError {
  constructor(readonly args: string[], readonly status: number | null, readonly stderr: string) {
    super(`git ${args.join(' ')} failed${status === null ? '' : ` (exit ${status})`}${stderr ? `: ${stderr.trim()}` : ''}`);
    this.name = 'GitError';
  }
}

/** git is not installed or not on PATH. */
export class GitMissingError extends MemctxError {
  constructor() {
    super('git is not installed or not on PATH', { hint: 'install git, or run memctx where git is on PATH' });
    this.name = 'GitMissingError';
  }
}

function cleanEnv(env: Env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}

/** How every git call runs (execFileSync's options; the background job takes its environment from them). */
export function gitExecOptions(cwd: string, env: Env, options: { timeoutMs?: number } = {}) {
  return { cwd, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] as ['ignore', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024, timeout: options.timeoutMs, killSignal: 'SIGKILL' as const };
}

/** Run git with these arguments in cwd and return its stdout (bytes); with `timeoutMs`, a git that takes longer is killed. */
export function gitBytes(args: string[], cwd: string, env: Env, options: { timeoutMs?: number } = {}): Buffer {
  try {
    // node:child_process on use, not an ES module import: a command that runs no git does not load it
    return process.getBuiltinModule('node:child_process').execFileSync('git', args, gitExecOptions(cwd, env, options));
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { status?: number | null; stderr?: Buffer };
    throw gitFailure(args, { code: e.code, status: e.status, stderr: e.stderr ? e.stderr.toString('utf8') : '', message: e.message }, options.timeoutMs);
  }
}

/** What a failed git call (as execFileSync reports it) means: git missing, too slow, or git's own error. */
export function gitFailure(args: string[], e: { code?: string | number; status?: number | null; stderr: string; message: string }, timeoutMs: number | undefined): MemctxError {
  // A failed spawn (no git on PATH) has code ENOENT and status null; git's own failures have no code.
  if (e.code === 'ENOENT') return new GitMissingError();
  if (e.code === 'ETIMEDOUT') return new GitError(args, null, `no answer within ${timeoutMs} ms`);
  return new GitError(args, e.status ?? null, e.stderr || e.message);
}

/** Run git and return its stdout as text. */
export function git(args: string[], cwd: string, env: Env, options: { timeoutMs?: number } = {}): string {
  return gitBytes(args, cwd, env, options).toString('utf8');
}

/** Split `-z` output into paths. */
export function splitNul(text: string): string[] {
  return text.split('\0').filter((p) => p !== '');
}

type ChangeStatus = 'modified' | 'added' | 'deleted' | 'renamed' | 'copied' | 'untracked' | 'type changed' | 'unmerged';

export interface GitChange {
  /** Path relative to the repository root, `/` separators. */
  path: string;
  status: ChangeStatus;
  /** The old path of a rename or copy. */
  from?: string;
}

export interface GitChanges {
  root: string;
  changes: GitChange[];
}

// Flush reads git's output: no optional locks, untranslated messages.
function flushEnv(env: Env): Env {
  return { ...env, GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' };
}

/**
 * True only when git cannot find a repository from dir: no `.git` entry (folder, file or link) and no
 * `HEAD` (a git directory itself) in dir or any folder above it, and no GIT_DIR, GIT_WORK_TREE or
 * GIT_COMMON_DIR in env. Callers for whom "not in git" is an answer (lint's repository, a stamp's HEAD)
 * skip starting git there; anything unsure (an unreadable folder) is left to git.
 */
export function outsideAnyRepository(dir: string, env: Env): boolean {
  if (env.GIT_DIR !== undefined || env.GIT_WORK_TREE !== undefined || env.GIT_COMMON_DIR !== undefined) return false;
  for (let at = resolve(dir); ; at = dirname(at)) {
    if (present(join(at, '.git')) !== false || present(join(at, 'HEAD')) !== false) return false;
    if (dirname(at) === at) return true;
  }
}

/** Whether path exists (a dangling link counts), or undefined when that cannot be told. */
function present(path: string): boolean | undefined {
  try {
    lstatSync(path);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? false : undefined;
  }
}

/** The top of the work tree holding cwd (git's answer; GitError outside one, GitMissingError without git). */
export function gitTopLevel(cwd: string, env: Env): string {
  return resolve(cwd, git(['rev-parse', '--show-toplevel'], cwd, flushEnv(env)).trim());
}

/**
 * gitTopLevel and, from the same `git rev-parse`, its answer to each of `asks` (one line each): only
 * when cwd is the top, since from below it git gives some paths relative to cwd.
 */
export function gitTopLevelWith(cwd: string, env: Env, asks: string[][]): { top: string; answers?: string[] } {
  const lines = git(['rev-parse', '--show-toplevel', ...asks.flat()], cwd, flushEnv(env)).split('\n');
  // A line break inside a path: the top asked alone.
  if (lines.length !== asks.length + 2) return { top: gitTopLevel(cwd, env) };
  const top = resolve(cwd, lines[0].trim());
  return top === resolve(cwd) ? { top, answers: lines.slice(1, -1) } : { top };
}

/** `flush --git`'s top of the work tree: a clear error when there is none or git is missing. */
export function gitRoot(cwd: string, env: Env): string {
  try {
    return gitTopLevel(cwd, env);
  } catch (err) {
    if (err instanceof GitMissingError) throw new MemctxError('--git needs git, and the `git` command was not found', { hint: 'install git or drop --git' });
    if (!(err instanceof GitError)) throw err;
    const stderr = err.stderr.trim();
    if (/not a git repository/i.test(stderr)) {
      throw new MemctxError(`--git: ${cwd} is not inside a git repository`, { hint: 'run memctx from inside the repository, or drop --git and list files with --changed' });
    }
    throw new MemctxError(`--git: git failed: ${stderr.split('\n')[0] || 'unknown error'}`, { file: cwd, hint: 'check that `git status` works here' });
  }
}

const STATUS: Record<string, ChangeStatus> = { M: 'modified', A: 'added', D: 'deleted', R: 'renamed', C: 'copied', T: 'type changed', U: 'unmerged', '?': 'untracked' };

function statusOf(code: string): ChangeStatus {
  if (code.includes('U') || code === 'AA' || code === 'DD') return 'unmerged';
  for (const c of ['R', 'C', 'D', 'A', 'T', 'M', '?']) if (code.includes(c)) return STATUS[c];
  return 'modified';
}

/** `git status --porcelain=v1 -z`: XY path NUL [orig NUL]. */
function parsePorcelain(out: string): GitChange[] {
  const parts = out.split('\0');
  const changes: GitChange[] = [];
  for (let i = 0; i < parts.length; i++) {
    const entry = parts[i];
    if (entry.length < 4) continue;
    const code = entry.slice(0, 2);
    if (code === '!!') continue;
    const change: GitChange = { path: entry.slice(3), status: statusOf(code) };
    if (code.includes('R') || code.includes('C')) change.from = parts[++i];
    changes.push(change);
  }
  return changes;
}

/** `git diff --name-status -z`: STATUS NUL path NUL [new path NUL]. */
function parseNameStatus(out: string): GitChange[] {
  const parts = out.split('\0');
  const changes: GitChange[] = [];
  for (let i = 0; i + 1 < parts.length; i++) {
    const code = parts[i];
    if (!/^[A-Z]/.test(code)) continue;
    const status = statusOf(code[0]);
    if (status === 'renamed' || status === 'copied') {
      changes.push({ path: parts[i + 2], status, from: parts[i + 1] });
      i += 2;
    } else {
      changes.push({ path: parts[i + 1], status });
      i += 1;
    }
  }
  return changes;
}

/**
 * Files changed in the work tree whose top is `root` (gitRoot's answer: staged, unstaged, untracked) and,
 * with `since`, everything that differs from that revision. Sorted by path; one entry per path.
 */
export function gitChanges(root: string, since: string | undefined, env: Env): GitChanges {
  const run = (args: string[]) => git(args, root, flushEnv(env));
  const byPath = new Map<string, GitChange>();
  if (since !== undefined) {
    try {
      run(['rev-parse', '--verify', '--quiet', '--end-of-options', `${since}^{commit}`]);
    } catch {
      const branch = defaultBranch(root, env);
      throw new MemctxError(`--since: unknown revision "${since}" in ${root}`, { hint: `give a commit, branch or tag that exists here, such as HEAD~3${branch ? ` or ${branch}` : ''}` });
    }
    for (const c of parseNameStatus(run(['diff', '--name-status', '-z', '-M', since, '--']))) byPath.set(c.path, c);
  }
  let status: string;
  try {
    status = run(['status', '--porcelain=v1', '-z', '--untracked-files=all']);
  } catch (err) {
    if (!(err instanceof GitError)) throw err;
    throw new MemctxError(`--git: git status failed: ${err.stderr.trim().split('\n')[0]}`, { file: root, hint: 'check that `git status` works here' });
  }
  for (const c of parsePorcelain(status)) byPath.set(c.path, c);
  const changes = [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { root, changes };
}

/**
 * `flush --git` with no `--since`: the merge base of HEAD with the default branch of the repository
 * whose top is `root` (origin's HEAD, else a local main, else master), so a feature branch's commits
 * count too. Undefined when there is no such branch or no commit yet.
 */
export function defaultSince(root: string, env: Env): { branch: string; rev: string } | undefined {
  const branch = defaultBranch(root, env);
  if (!branch) return undefined;
  const rev = quietGit(['merge-base', 'HEAD', branch], root, env);
  return rev ? { branch, rev } : undefined;
}

/** git's trimmed stdout, or '' when it fails. */
function quietGit(args: string[], root: string, env: Env): string {
  try {
    return git(args, root, flushEnv(env)).trim();
  } catch {
    return '';
  }
}

/** The repository's default branch: origin's HEAD, else a local main, else master; undefined when none. */
function defaultBranch(root: string, env: Env): string | undefined {
  const remote = quietGit(['symbolic-ref', '--quiet', '--short', 'refs/remotes/origin/HEAD'], root, env);
  return remote || ['main', 'master'].find((name) => quietGit(['rev-parse', '--verify', '--quiet', `refs/heads/${name}`], root, env) !== '');
}

/** The folder holding the `.git` entry at or above dir (the work tree's top), found without running git. */
function gitTopByFiles(dir: string): string | undefined {
  let at = resolve(dir);
  for (;;) {
    if (existsSync(join(at, '.git'))) return at;
    const up = dirname(at);
    if (up === at) return undefined;
    at = up;
  }
}

/** True when dir is inside a git work tree (a `.git` entry in it or above), found without running git. */
function insideGitRepo(dir: string): boolean {
  return gitTopByFiles(dir) !== undefined;
}

/**
 * False when git's own files show that no commit can have been made on HEAD since `startMs` (so `git
 * log` need not run): HEAD names a branch with no commit yet, or neither HEAD nor the branch's ref
 * changed since then. True when they may have, and whenever the layout is not the plain one read
 * here (a linked work tree or submodule, GIT_DIR set, reftable, an unreadable file).
 */
function headMayHaveMoved(root: string, startMs: number, env: Env): boolean {
  if (Number.isNaN(startMs) || env.GIT_DIR !== undefined || env.GIT_COMMON_DIR !== undefined) return true;
  const gitDir = join(root, '.git');
  const changedSince = (stat: Stats | undefined) => stat === undefined || stat.mtimeMs >= startMs;
  try {
    if (!statSync(gitDir).isDirectory() || existsSync(join(gitDir, 'reftable'))) return true;
    const headPath = join(gitDir, 'HEAD');
    const headMoved = changedSince(statSync(headPath));
    const head = readFileSync(headPath, 'utf8');
    const branch = /^ref: (refs\/heads\/\S+)\s*$/.exec(head);
    // Detached: HEAD itself holds the commit.
    if (!branch) return headMoved || !/^[0-9a-f]{40,64}\s*$/.test(head);
    const loose = statSync(join(gitDir, branch[1]), { throwIfNoEntry: false });
    if (loose) return headMoved || changedSince(loose);
    // No loose ref: the branch is packed (a commit since would have written a loose one), or has no commit yet.
    const packedPath = join(gitDir, 'packed-refs');
    const packed = statSync(packedPath, { throwIfNoEntry: false });
    if (!packed || !`${readFileSync(packedPath, 'utf8')}\n`.includes(` ${branch[1]}\n`)) return false;
    return headMoved || changedSince(packed);
  } catch {
    return true;
  }
}

/** `git log --name-status -z --format=%x01%H`: the files of each commit. */
function parseLogNameStatus(out: string): GitChange[] {
  return parseNameStatus(out.replace(/\x01[0-9a-f]+\0?/g, '').replace(/(^|\0)\n/g, '$1'));
}

export interface SessionGitChanges {
  root: string;
  /** Files of the commits made since the session started, then the work tree's changes (later wins). */
  changes: GitChange[];
  /** What git could not tell (a call that failed or took too long). */
  problems: string[];
}

/**
 * What a session changed according to git: the files of the commits made since `since` (an ISO
 * time) and the work tree's changes, one git call each, each killed after `timeoutMs`. Outside a
 * work tree: undefined, without running git.
 */
export function sessionGitChanges(cwd: string, since: string | undefined, env: Env, timeoutMs: number): SessionGitChanges | undefined {
  const root = gitTopByFiles(cwd);
  if (!root) return undefined;
  const problems: string[] = [];
  const byPath = new Map<string, GitChange>();
  // a renamed file is listed under its new path only (added during the session: still new)
  const note = (c: GitChange) => {
    const before = c.status === 'renamed' && c.from ? byPath.get(c.from) : undefined;
    if (c.from && c.status === 'renamed') byPath.delete(c.from);
    byPath.set(c.path, before?.status === 'added' ? { path: c.path, status: 'added' } : c);
  };
  const run = (what: string, args: string[]): string | undefined => {
    try {
      return git(args, root, flushEnv(env), { timeoutMs });
    } catch (err) {
      problems.push(`${what}: ${err instanceof MemctxError ? err.message : String(err)}`);
      return undefined;
    }
  };
  // A start stated to the second (as transcripts' first lines are kept) counts from the end of that second.
  const startMs = since === undefined ? Number.NaN : Date.parse(since) + (/:\d\d(?:Z|[+-]\d\d:?\d\d)?$/.test(since) ? 999 : 0);
  // (HEAD's files are compared with the start less two seconds: some file systems keep coarse times.)
  if (since !== undefined && headMayHaveMoved(root, Date.parse(since) - 2_000, env)) {
    const log = run('the commits of the session', ['log', `--since=${since}`, '--name-status', '-z', '-M', '--format=%x01%H', '--']);
    // oldest first, so the latest change of a path wins
    if (log) for (const c of parseLogNameStatus(log).reverse()) note(c);
  }
  const status = run('the work tree', ['status', '--porcelain=v1', '-z', '--untracked-files=all']);
  // Only work-tree changes made since the session started are the session's: a file left changed
  // before it (by init, by hand) is not, nor a deletion git cannot date; without a start, none are.
  const during = (c: GitChange) => !Number.isNaN(startMs) && (c.status !== 'deleted' && (statSync(join(root, c.path), { throwIfNoEntry: false })?.mtimeMs ?? 0) >= startMs);
  if (status) for (const c of parsePorcelain(status)) if (byPath.has(c.path) || during(c)) note(c);
  return { root, changes: [...byPath.values()], problems };
}

/**
 * The last commit time (ms) of each of these paths (relative to root), from one `git log` call.
 * Paths git does not know are absent; any git failure gives an empty map.
 */
export function lastCommitTimes(root: string, paths: readonly string[], env: Env): Map<string, number> {
  const times = new Map<string, number>();
  if (paths.length === 0 || !insideGitRepo(root)) return times;
  const wanted = new Set(paths);
  // Name the files when they are few; else ask for the whole directory and keep the wanted ones.
  const spec = paths.length <= 200 ? [...paths] : ['.'];
  let out: string;
  try {
    out = git(['log', '-z', '--name-only', '--relative', '--no-renames', '--format=%x01%ct', '--', ...spec], root, env);
  } catch {
    return times;
  }
  let time = 0;
  for (const token of out.split('\0')) {
    if (token.startsWith('\x01')) time = Number(token.slice(1)) * 1000;
    else {
      const path = token.replace(/^\n/, '');
      if (path !== '' && wanted.has(path) && !times.has(path)) times.set(path, time);
    }
  }
  return times;
}
