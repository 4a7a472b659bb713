import { dirname, join, resolve } from 'node:path';
import { MemctxError } from '../../kernel/errors.js';
import { END_MARKER } from '../../kernel/memindex/groups.js';
import { splitIndex } from '../../kernel/memindex/merge.js';
import { realPathOf } from '../../kernel/hooks/git.js';
import { git, gitBytes, GitError, splitNul, type Env } from '../../kernel/sources/git.js';
const { existsSync } = process.getBuiltinModule('node:fs');

/** What `memctx index --staged` found and did. */
export interface StagedResult {
  /** Staged paths inside the memory directory, relative to the repository top. */
  touched: string[];
  rebuilt: boolean;
  changed: boolean;
  staged: boolean;
  files: number;
}

// Paths are passed to git literally (no globs), and repository config cannot make diffs relative.
const GIT = ['--literal-pathspecs', '-c', 'diff.relative=false', '-c', 'core.quotepath=false'];

/** Staged changes (index against HEAD) under rel; renames count on both sides. */
export function stagedPaths(top: string, rel: string, env: Env): string[] {
  const spec = rel === '' ? [] : ['--', rel];
  return splitNul(git([...GIT, 'diff', '--cached', '--name-only', '--no-renames', '--no-ext-diff', '-z', ...spec], top, env));
}

/** Paths under rel whose working-tree copy differs from the index. */
export function unstagedPaths(top: string, rel: string, env: Env): string[] {
  const spec = rel === '' ? [] : ['--', rel];
  return splitNul(git([...GIT, 'diff', '--name-only', '--no-renames', '--no-ext-diff', '-z', ...spec], top, env));
}

/** Untracked, not ignored, paths under rel. */
export function untrackedPaths(top: string, rel: string, env: Env): string[] {
  const spec = rel === '' ? [] : ['--', rel];
  return splitNul(git([...GIT, 'ls-files', '--others', '--exclude-standard', '-z', ...spec], top, env));
}

/** The staged (index) text of a path, or undefined when it is not in the index. */
export function indexText(top: string, path: string, env: Env): string | undefined {
  try {
    return gitBytes([...GIT, 'cat-file', 'blob', `:${path}`], top, env).toString('utf8');
  } catch (err) {
    if (err instanceof GitError) return undefined;
    throw err;
  }
}

/** Line endings aside (core.autocrlf), the same text. */
function sameText(a: string, b: string): boolean {
  return a.replace(/\r\n/g, '\n') === b.replace(/\r\n/g, '\n');
}

/**
 * Unstaged changes to MEMORY.md that memctx made itself (after `memctx add`, say) are safe to stage:
 * the working copy is exactly what a rebuild gives and its hand-written text matches the staged copy.
 */
export function onlyGeneratedEdits(working: string | undefined, generated: string, staged: string | undefined): boolean {
  if (working === undefined || working !== generated || staged === undefined) return false;
  return sameText(outsideText(working), outsideText(staged));
}

function outsideText(text: string): string {
  try {
    const parts = splitIndex(text);
    return parts.block === undefined ? text : parts.before + END_MARKER + parts.after;
  } catch {
    return text;
  }
}

/**
 * During `git commit PATH...` (an "only" commit) git runs the hook on a temporary index
 * (GIT_INDEX_FILE=.git/next-index-*.lock) while it holds the real index, already updated, in
 * .git/index.lock, which it renames into place once the commit is made. That lock file is returned
 * so MEMORY.md can be staged there as well; undefined for any other commit.
 */
export function realIndexOfPartialCommit(top: string, cwd: string, env: Env): string | undefined {
  if (!env.GIT_INDEX_FILE) return undefined;
  const gitDir = realPathOf(resolve(top, git(['rev-parse', '--git-dir'], top, env).trim()));
  const current = realPathOf(resolve(cwd, env.GIT_INDEX_FILE));
  const lock = join(gitDir, 'index.lock');
  if (current === join(gitDir, 'index') || current === lock || dirname(current) !== gitDir) return undefined;
  return existsSync(lock) ? lock : undefined;
}

export function gitAdd(top: string, path: string, env: Env): void {
  try {
    git([...GIT, 'add', '--', path], top, env);
  } catch (err) {
    if (!(err instanceof GitError)) throw err;
    throw new MemctxError(`could not stage ${path}: ${err.stderr.trim() || err.message}`, { file: path, hint: 'stage it yourself with `git add`, or check that it is not ignored by .gitignore' });
  }
}
