/** Running git for `flush --git`: the repository root and the files changed in it. */
import { execFileSync } from 'node:child_process';
import { MemctxError } from './errors.js';

export type ChangeStatus = 'modified' | 'added' | 'deleted' | 'renamed' | 'copied' | 'untracked' | 'type changed' | 'unmerged';

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

function git(cwd: string, args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' } });
}

function failure(err: unknown): { code?: string; stderr: string } {
  const e = err as NodeJS.ErrnoException & { stderr?: string | Buffer };
  return { code: e.code, stderr: String(e.stderr ?? e.message ?? '').trim() };
}

/** The top of the work tree holding cwd; a clear error when there is none or git is missing. */
export function gitRoot(cwd: string): string {
  try {
    return git(cwd, ['rev-parse', '--show-toplevel']).trim();
  } catch (err) {
    const f = failure(err);
    if (f.code === 'ENOENT') throw new MemctxError('--git needs git, and the `git` command was not found', { hint: 'install git or drop --git' });
    if (/not a git repository/i.test(f.stderr)) {
      throw new MemctxError(`--git: ${cwd} is not inside a git repository`, { hint: 'run memctx from inside the repository, or drop --git and list files with --changed' });
    }
    throw new MemctxError(`--git: git failed: ${f.stderr.split('\n')[0] || 'unknown error'}`, { file: cwd, hint: 'check that `git status` works here' });
  }
}

const STATUS: Record<string, ChangeStatus> = { M: 'modified', A: 'added', D: 'deleted', R: 'renamed', C: 'copied', T: 'type changed', U: 'unmerged', '?': 'untracked' };

function statusOf(code: string): ChangeStatus {
  if (code.includes('U') || code === 'AA' || code === 'DD') return 'unmerged';
  for (const c of ['R', 'C', 'D', 'A', 'T', 'M', '?']) if (code.includes(c)) return STATUS[c];
  return 'modified';
}

/** `git status --porcelain=v1 -z`: XY path NUL [orig NUL]. */
export function parsePorcelain(out: string): GitChange[] {
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
export function parseNameStatus(out: string): GitChange[] {
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
 * Files changed in the work tree (staged, unstaged, untracked) and, with `since`, everything that
 * differs from that revision. Sorted by path; one entry per path.
 */
export function gitChanges(cwd: string, since?: string): GitChanges {
  const root = gitRoot(cwd);
  const byPath = new Map<string, GitChange>();
  if (since !== undefined) {
    try {
      git(root, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${since}^{commit}`]);
    } catch {
      throw new MemctxError(`--since: unknown revision "${since}" in ${root}`, { hint: 'give a commit, branch or tag that exists here, such as HEAD~3 or main' });
    }
    for (const c of parseNameStatus(git(root, ['diff', '--name-status', '-z', '-M', since, '--']))) byPath.set(c.path, c);
  }
  let status: string;
  try {
    status = git(root, ['status', '--porcelain=v1', '-z', '--untracked-files=all']);
  } catch (err) {
    throw new MemctxError(`--git: git status failed: ${failure(err).stderr.split('\n')[0]}`, { file: root, hint: 'check that `git status` works here' });
  }
  for (const c of parsePorcelain(status)) byPath.set(c.path, c);
  const changes = [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { root, changes };
}
