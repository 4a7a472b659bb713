import { spawnSync } from 'node:child_process';
import { relative, resolve, sep } from 'node:path';
import fg from 'fast-glob';

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

function git(cwd: string, args: string[]): string | undefined {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] });
  return result.status === 0 ? result.stdout : undefined;
}

/** The git top level containing `from`, or undefined outside a repository (or without git). */
export function gitTopLevel(from: string): string | undefined {
  const out = git(from, ['rev-parse', '--show-toplevel']);
  return out ? resolve(out.trim()) : undefined;
}

const splitZ = (text: string) => text.split('\0').filter(Boolean);

/** Where the repository is: the git top level containing `from`, else `fallbackRoot`. */
export function findRepository(from: string, fallbackRoot: string): { root: string; git: boolean } {
  const top = gitTopLevel(from);
  return top ? { root: top, git: true } : { root: resolve(fallbackRoot), git: false };
}

/**
 * List the repository's files. With git: tracked and untracked-but-not-ignored files, minus files
 * deleted from the work tree, plus ignored directories. Without git: a walk of the root skipping
 * `.git` and `node_modules`.
 */
export function listRepoFiles(repo: { root: string; git: boolean }): RepoListing {
  if (repo.git) {
    const listed = git(repo.root, ['ls-files', '-z', '--cached', '--others', '--exclude-standard']);
    const deleted = git(repo.root, ['ls-files', '-z', '--deleted']);
    const ignored = git(repo.root, ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory']);
    if (listed !== undefined) {
      const gone = new Set(splitZ(deleted ?? ''));
      const ignoredEntries = splitZ(ignored ?? '');
      const files = [...splitZ(listed).filter((f) => !gone.has(f)), ...ignoredEntries.filter((e) => !e.endsWith('/'))];
      return { root: repo.root, files: [...new Set(files)], ignoredDirs: ignoredEntries.filter((e) => e.endsWith('/')), git: true };
    }
  }
  const files = fg.sync('**', { cwd: repo.root, dot: true, onlyFiles: true, followSymbolicLinks: false, ignore: ['**/.git/**', '**/node_modules/**'], suppressErrors: true });
  return { root: repo.root, files, ignoredDirs: ['node_modules/'], git: false };
}

/** `target` relative to `root` with `/` separators, or undefined when it is outside root. */
export function relativeInside(root: string, target: string): string | undefined {
  const rel = relative(root, target);
  if (rel === '') return '';
  if (rel.startsWith('..') || resolve(root, rel) !== resolve(target)) return undefined;
  return rel.split(sep).join('/');
}


/** Every file under a directory (dot-files included, the `.memctx/` cache excluded), relative to it. */
export function listDirFiles(root: string): string[] {
  return fg.sync('**', { cwd: root, dot: true, onlyFiles: true, followSymbolicLinks: false, ignore: ['.memctx/**'], suppressErrors: true });
}
