import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Context } from '../cli/context.js';
import { EXIT_OK, EXIT_PROBLEMS, MemctxError } from '../store/errors.js';
import { BEGIN_MARKER, END_MARKER } from '../memindex/groups.js';
import { gitTopLevel, joinRepoPath, memoryDirOutside, pathInRepo, realPathOf } from './git.js';
import { git, gitBytes, GitError, splitNul, type Env } from '../store/git.js';

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

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The pre-commit hook's work: when staged changes touch the memory directory, rebuild MEMORY.md and
 * stage it; refuse (exit 1) when MEMORY.md holds unstaged edits that a rebuild would overwrite.
 */
export async function runStagedIndex(ctx: Context, root: string): Promise<number> {
  const env = ctx.io.env;
  const top = gitTopLevel(ctx.io.cwd, env);
  const rel = pathInRepo(top, root);
  if (rel === undefined) {
    if (memoryDirIsExplicit(ctx)) throw memoryDirOutside(root, top);
    // Found by walking up past the repository: this repository has no memory directory of its own.
    if (!ctx.ui.json) ctx.ui.warn(`the nearest memory directory, ${root}, is outside this repository (${top}); nothing to index`);
    else ctx.ui.printJson(result([]));
    return EXIT_OK;
  }
  if (!isDirectory(root)) {
    if (!ctx.ui.json) ctx.ui.warn(`no memory directory at ${root}; nothing to index`);
    else ctx.ui.printJson(result([]));
    return EXIT_OK;
  }
  const touched = stagedPaths(top, rel, env);
  if (touched.length === 0) {
    if (ctx.ui.json) ctx.ui.printJson(result(touched));
    return EXIT_OK;
  }
  // Loaded only now: the common case above (nothing staged in the memory directory) stays light.
  const { INDEX_FILE } = await import('../store/scan.js');
  const { planIndex, rebuildIndex } = await import('../cli/reindex.js');
  const { displayPath } = await import('../cli/display.js');
  const { withMemoryLock } = await import('../store/write.js');
  const indexRel = joinRepoPath(rel, INDEX_FILE);
  const indexAbs = join(root, INDEX_FILE);
  const unstaged = unstagedPaths(top, rel, env);
  const outcome = await withMemoryLock(root, async () => {
    if (unstaged.includes(indexRel)) {
      const plan = planIndex(root);
      if (!onlyGeneratedEdits(plan.previous, plan.text, indexText(top, indexRel, env))) return 'hand-edited' as const;
    }
    return rebuildIndex(root);
  });
  if (outcome === 'hand-edited') {
    throw new MemctxError(`${INDEX_FILE} has unstaged edits that a rebuild would overwrite; commit stopped`, {
      file: displayPath(ctx.io.cwd, indexAbs),
      exitCode: EXIT_PROBLEMS,
      hint: `stage them (git add :/${indexRel}) or discard them (git restore :/${indexRel}), then commit again`,
    });
  }
  gitAdd(top, indexRel, env);
  // `git commit PATH` commits a temporary index: stage in the real one too, or the next commit undoes this.
  const realIndex = realIndexOfPartialCommit(top, ctx.io.cwd, env);
  if (realIndex) gitAdd(top, indexRel, { ...env, GIT_INDEX_FILE: realIndex });
  // A broken file in this commit stops it; one already in the repository only gets a warning.
  const touchedSet = new Set(touched);
  const blocking = outcome.problems.filter((p) => touchedSet.has(joinRepoPath(rel, p.path)));
  for (const problem of outcome.problems) {
    ctx.ui.problem({ ...problem, path: displayPath(ctx.io.cwd, join(root, problem.path)) }, blocking.includes(problem) ? 'error' : 'warning');
  }
  await warnUnstaged(ctx, { top, rel, root, indexRel, unstaged });
  if (ctx.ui.json) {
    ctx.ui.printJson({ ...result(touched), rebuilt: true, changed: outcome.changed, staged: true, files: outcome.files, problems: outcome.problems });
  } else {
    ctx.ui.info(`memctx: ${INDEX_FILE} ${outcome.changed ? 'rebuilt and staged' : 'is up to date'} (${outcome.files} ${outcome.files === 1 ? 'file' : 'files'})`);
  }
  if (blocking.length) {
    ctx.io.stderr.write(`memctx: commit stopped: fix the memory file${blocking.length > 1 ? 's' : ''} above, stage and commit again (or commit with --no-verify)\n`);
    return EXIT_PROBLEMS;
  }
  return EXIT_OK;
}

/** Whether the memory directory was named (--dir, --claude, MEMCTX_DIR) rather than found by walking up. */
export function memoryDirIsExplicit(ctx: Context): boolean {
  return Boolean(ctx.globals.dir ?? ctx.globals.claude ?? ctx.io.env.MEMCTX_DIR);
}

function result(touched: string[]): StagedResult {
  return { touched, rebuilt: false, changed: false, staged: false, files: 0 };
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
  const begin = text.indexOf(BEGIN_MARKER);
  const end = text.indexOf(END_MARKER);
  if (begin === -1 || end === -1 || end < begin) return text;
  return text.slice(0, begin) + text.slice(end);
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

function gitAdd(top: string, path: string, env: Env): void {
  try {
    git([...GIT, 'add', '--', path], top, env);
  } catch (err) {
    if (!(err instanceof GitError)) throw err;
    throw new MemctxError(`could not stage ${path}: ${err.stderr.trim() || err.message}`, { file: path, hint: 'stage it yourself with `git add`, or check that it is not ignored by .gitignore' });
  }
}

/** The index is built from the working tree: say where that differs from what is being committed. */
async function warnUnstaged(ctx: Context, at: { top: string; rel: string; root: string; indexRel: string; unstaged: string[] }): Promise<void> {
  const { INDEX_FILE, listMemoryPaths } = await import('../store/scan.js');
  for (const p of at.unstaged) {
    if (p !== at.indexRel) ctx.ui.warn(`${p} has unstaged changes; ${INDEX_FILE} was built from the working copy`);
  }
  const untracked = untrackedPaths(at.top, at.rel, ctx.io.env);
  if (untracked.length === 0) return;
  const indexed = new Set(listMemoryPaths(at.root).map((p) => joinRepoPath(at.rel, p)));
  for (const p of untracked) {
    if (indexed.has(p)) ctx.ui.warn(`${p} is listed in ${INDEX_FILE} but not tracked by git; \`git add\` it too`);
  }
}
