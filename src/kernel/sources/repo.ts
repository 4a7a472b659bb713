import { resolve } from 'node:path';
import { walkTree, type WalkOptions } from '../store/list.js';
import { git as runGit, gitTopLevel, outsideAnyRepository, splitNul, type Env } from './git.js';

/** The repository around a memory directory, for rules that check paths a memory mentions. */
export interface RepoListing {
  /** Absolute repository root: the git top level, else the given fallback. */
  root: string;
  /** Every file in the repository, relative to root with `/` separators (tracked and untracked, not ignored). */
  files: string[];
  /** Git-ignored directories (`dist/`, `node_modules/`): what is under them exists but is not listed. */
  ignoredDirs: string[];
  /** True when the listing came from git. */
  git: boolean;
}

// Any failure (not a repository, no git) means "no listing from git": the callers fall back.
function git(cwd: string, args: string[], env: Env): string | undefined {
  try {
    return runGit(args, cwd, env);
  } catch {
    return undefined;
  }
}

/** The git top level containing `from`, or undefined outside a repository (or without git). */
function topLevelOrNone(from: string, env: Env): string | undefined {
  if (outsideAnyRepository(from, env)) return undefined;
  try {
    return gitTopLevel(from, env);
  } catch {
    return undefined;
  }
}

/** Where the repository is: the git top level containing `from`, else `fallbackRoot`. */
export function findRepository(from: string, fallbackRoot: string, env: Env): { root: string; git: boolean } {
  const top = topLevelOrNone(from, env);
  return top ? { root: top, git: true } : { root: resolve(fallbackRoot), git: false };
}

/**
 * List the repository's files. With git: tracked and untracked-but-not-ignored files, minus files
 * deleted from the work tree, plus ignored directories. Without git: a walk of the root skipping
 * `.git` and `node_modules`.
 */
export function listRepoFiles(repo: { root: string; git: boolean }, env: Env): RepoListing {
  if (repo.git) {
    // One call for tracked, untracked and deleted files: `-t` tags each entry, `R ` a deleted one.
    const tagged = git(repo.root, ['ls-files', '-z', '-t', '--cached', '--others', '--deleted', '--exclude-standard'], env);
    const ignored = git(repo.root, ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory'], env);
    if (tagged !== undefined) {
      const entries = splitNul(tagged);
      const gone = new Set(entries.filter((e) => e.startsWith('R ')).map((e) => e.slice(2)));
      const listed = entries.filter((e) => !e.startsWith('R ')).map((e) => e.slice(2));
      const ignoredEntries = splitNul(ignored ?? '');
      const files = [...listed.filter((f) => !gone.has(f)), ...ignoredEntries.filter((e) => !e.endsWith('/'))];
      return { root: repo.root, files: [...new Set(files)], ignoredDirs: ignoredEntries.filter((e) => e.endsWith('/')), git: true };
    }
  }
  const files = walkFiles(repo.root, { skipDir: (name) => name === '.git' || name === 'node_modules' });
  return { root: repo.root, files, ignoredDirs: ['node_modules/'], git: false };
}

/** Every file under a directory (dot-files included, the `.memctx/` cache excluded), relative to it. */
export function listDirFiles(root: string): string[] {
  return walkFiles(root, { skipTop: (name) => name === '.memctx' });
}

/** The regular files under root (dot-files included), through the kernel's one walker: no link followed, unreadable folders skipped. */
function walkFiles(root: string, skip: Pick<WalkOptions, 'skipTop' | 'skipDir'>): string[] {
  const files: string[] = [];
  walkTree(root, { dot: true, ...skip }, (path, dirent) => {
    if (dirent.isFile()) files.push(path);
  }, () => undefined);
  return files;
}
