/**
 * `memctx index --staged`, the pre-commit hook's command: the git plumbing is in src/hooks/staged.ts.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from './context.js';
import { EXIT_OK, EXIT_PROBLEMS, MemctxError } from '../errors.js';
import { gitTopLevel, joinRepoPath, memoryDirOutside, pathInRepo } from '../hooks/git.js';
import { gitAdd, indexText, onlyGeneratedEdits, realIndexOfPartialCommit, stagedPaths, unstagedPaths, untrackedPaths, type StagedResult } from '../hooks/staged.js';

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
  const { planIndex, rebuildIndex } = await import('../actions/reindex.js');
  const { displayPath } = await import('./display.js');
  const { withMemoryLock } = await import('../store/write.js');
  const indexRel = joinRepoPath(rel, INDEX_FILE);
  const indexAbs = join(root, INDEX_FILE);
  const unstaged = unstagedPaths(top, rel, env);
  const outcome = await withMemoryLock(root, async () => {
    if (unstaged.includes(indexRel)) {
      const plan = await planIndex(root);
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
    ctx.ui.note(`memctx: commit stopped: fix the memory file${blocking.length > 1 ? 's' : ''} above, stage and commit again (or commit with --no-verify)\n`, { quietable: false });
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
