/** What git says about the commits since memories were verified: drift's only git calls (at most four for all memories). */
import { resolve } from 'node:path';
import { git, gitTopLevel, GitError, type Env } from './git.js';
import { MemctxError } from '../errors.js';

const COMMIT = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
const TIMEOUT_MS = 20_000;

/** One file a commit changed (rename: `from` is the old path). */
interface CommitChange {
  status: string;
  path: string;
  from?: string;
}

export interface HistoryCommit {
  hash: string;
  parents: string[];
  subject: string;
  changes: CommitChange[];
}

/** Where a log is kept between runs (kernel/state/history-cache.ts). */
export interface LogCache {
  get(range: string): string | undefined;
  set(range: string, log: string): void;
}

export type History =
  | { known: true; root: string; head: string; commits: HistoryCommit[]; missing: Set<string> }
  | { known: false; reason: string };

// Untranslated messages, no optional locks.
function quiet(env: Env): Env {
  return { ...env, GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' };
}

/** The commit HEAD names in the repository holding dir, or undefined (not in git, no commit yet, no git). */
export function headCommit(dir: string, env: Env): string | undefined {
  try {
    const out = git(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], dir, quiet(env), { timeoutMs: TIMEOUT_MS }).trim();
    return COMMIT.test(out) ? out : undefined;
  } catch {
    return undefined;
  }
}

/** `git log -z --name-status --format=%x01%H %P%x02%s`: commits with their files, newest first. */
function parseHistory(out: string): HistoryCommit[] {
  const commits: HistoryCommit[] = [];
  for (const chunk of out.split('\x01')) {
    if (chunk === '') continue;
    const headEnd = chunk.indexOf('\0');
    const head = headEnd < 0 ? chunk : chunk.slice(0, headEnd);
    const sep = head.indexOf('\x02');
    const ids = (sep < 0 ? head : head.slice(0, sep)).trim().split(' ');
    const commit: HistoryCommit = { hash: ids[0], parents: ids.slice(1).filter(Boolean), subject: sep < 0 ? '' : head.slice(sep + 1).replace(/\n+$/, ''), changes: [] };
    const parts = headEnd < 0 ? [] : chunk.slice(headEnd + 1).split('\0');
    for (let i = 0; i + 1 < parts.length; i++) {
      const code = parts[i].replace(/^\n/, '');
      if (!/^[A-Z]/.test(code)) continue;
      if (code[0] === 'R' || code[0] === 'C') {
        commit.changes.push({ status: code[0], from: parts[i + 1], path: parts[i + 2] });
        i += 2;
      } else {
        commit.changes.push({ status: code[0], path: parts[i + 1] });
        i += 1;
      }
    }
    commits.push(commit);
  }
  return commits;
}

function reasonOf(err: unknown): string {
  if (err instanceof GitError) return err.stderr.trim().split('\n')[0] || err.message;
  return err instanceof MemctxError ? err.message : String(err);
}

/**
 * The commits reachable from HEAD and not from the common ancestor of every `verified` commit, with
 * their files (renames detected), in one `git log`; plus which verified commits git does not have.
 * A shallow clone whose history misses a verified commit, or no git: drift is unknown.
 */
export function historySince(dir: string, verified: readonly string[], env: Env, cache?: LogCache): History {
  const run = (args: string[]) => git(args, root, quiet(env), { timeoutMs: TIMEOUT_MS });
  // One git call for the top, shallowness and HEAD; when it fails, the two that say which part failed.
  const facts = topShallowHead(dir, env);
  let root: string;
  try {
    root = facts?.root ?? gitTopLevel(dir, env);
  } catch (err) {
    return { known: false, reason: `not in a git repository (${reasonOf(err)})` };
  }
  try {
    const [shallow, head] = facts ? [facts.shallow, facts.head] : run(['rev-parse', '--is-shallow-repository', 'HEAD']).trim().split('\n');
    const wanted = [...new Set(verified.filter((v) => COMMIT.test(v)))];
    const present = new Set(wanted.length ? run(['rev-list', '--no-walk', '--ignore-missing', ...wanted]).split('\n').filter(Boolean) : []);
    const missing = new Set(verified.filter((v) => !present.has(v)));
    if (missing.size > 0 && shallow === 'true') return { known: false, reason: 'this is a shallow clone, so the commits since the memories were verified are not all here (`git fetch --unshallow` brings them)' };
    if (present.size === 0) return { known: true, root, head, commits: [], missing };
    const base = present.size === 1 ? [...present][0] : run(['merge-base', '--octopus', ...present]).trim();
    // The log between two commits never changes: kept between runs by the caller's cache.
    const range = `${head} ^${base}${shallow === 'true' ? ' shallow' : ''}`;
    let log = cache?.get(range);
    if (log === undefined) {
      log = run(['log', '-z', '--name-status', '-M', '--no-color', '--format=%x01%H %P%x02%s', head, ...(base ? [`^${base}`] : []), '--']);
      cache?.set(range, log);
    }
    return { known: true, root, head, commits: parseHistory(log), missing };
  } catch (err) {
    return { known: false, reason: `git could not tell: ${reasonOf(err)}` };
  }
}

/** The work tree's top, whether the clone is shallow, and HEAD, from one `git rev-parse`; undefined when any is missing. */
function topShallowHead(dir: string, env: Env): { root: string; shallow: string; head: string } | undefined {
  try {
    const [top, shallow, head] = git(['rev-parse', '--show-toplevel', '--is-shallow-repository', 'HEAD'], dir, quiet(env), { timeoutMs: TIMEOUT_MS }).trim().split('\n');
    return top && shallow && head ? { root: resolve(dir, top), shallow, head } : undefined;
  } catch {
    return undefined;
  }
}

/** `{ verified: HEAD }` for a memory directory inside git with a commit; empty otherwise. */
export function verifiedStamp(root: string, env: Record<string, string | undefined> = process.env): { verified?: string } {
  const head = headCommit(root, env);
  return head ? { verified: head } : {};
}
