/**
 * `memctx index --staged`, the pre-commit hook's use case: when staged changes touch the memory
 * directory, rebuild MEMORY.md and stage it; refuse (exit 1) when MEMORY.md holds unstaged edits that
 * a rebuild would overwrite. The git plumbing is in src/commands/index/git-staged.ts.
 */
import { join } from 'node:path';
import { EXIT_PROBLEMS, MemctxError } from '../../kernel/errors.js';
import { gitTopLevel, joinRepoPath, memoryDirOutside, pathInRepo } from '../../kernel/hooks/git.js';
import { gitAdd, indexText, onlyGeneratedEdits, realIndexOfPartialCommit, stagedPaths, unstagedPaths, untrackedPaths } from './git-staged.js';
import type { FileProblem } from '../../kernel/store/types.js';
import { INDEX_FILE, listMemoryPaths } from '../../kernel/store/scan.js';
import { planIndex, rebuildIndex } from '../../kernel/memindex/reindex.js';
import { displayPath } from '../../kernel/store/paths.js';
import { withMemoryLock } from '../../kernel/store/write.js';
const { statSync } = process.getBuiltinModule('node:fs');

export interface IndexStagedOptions {
  root: string;
  /** The memory directory was named (--dir, --claude, MEMCTX_DIR) rather than found by walking up. */
  explicitDir: boolean;
}

export interface IndexStagedDeps {
  cwd: string;
  env: Record<string, string | undefined>;
}

export type IndexStagedResult =
  /** Nothing to index, and why (no memory directory in this repository). */
  | { rebuilt: false; skipped?: string; touched: string[] }
  | {
      rebuilt: true;
      touched: string[];
      changed: boolean;
      files: number;
      /** `blocking`: the file is part of this commit, which it stops. */
      problems: (FileProblem & { blocking: boolean })[];
      /** Where the working tree differs from what is being committed. */
      warnings: string[];
    };

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export async function indexStaged(options: IndexStagedOptions, deps: IndexStagedDeps): Promise<IndexStagedResult> {
  const { root } = options;
  const { env } = deps;
  const top = gitTopLevel(deps.cwd, env);
  const rel = pathInRepo(top, root);
  if (rel === undefined) {
    if (options.explicitDir) throw memoryDirOutside(root, top);
    // Found by walking up past the repository: this repository has no memory directory of its own.
    return { rebuilt: false, skipped: `the nearest memory directory, ${root}, is outside this repository (${top}); nothing to index`, touched: [] };
  }
  if (!isDirectory(root)) return { rebuilt: false, skipped: `no memory directory at ${root}; nothing to index`, touched: [] };
  const touched = stagedPaths(top, rel, env);
  if (touched.length === 0) return { rebuilt: false, touched };
  const indexRel = joinRepoPath(rel, INDEX_FILE);
  const unstaged = unstagedPaths(top, rel, env);
  const folded: string[] = [];
  const outcome = await withMemoryLock(root, async () => {
    if (unstaged.includes(indexRel)) {
      const plan = await planIndex(root);
      if (!onlyGeneratedEdits(plan.previous, plan.text, indexText(top, indexRel, env))) return 'hand-edited' as const;
    }
    return rebuildIndex(root, {}, (message) => folded.push(message));
  });
  if (outcome === 'hand-edited') {
    throw new MemctxError(`${INDEX_FILE} has unstaged edits that a rebuild would overwrite; commit stopped`, {
      file: displayPath(deps.cwd, join(root, INDEX_FILE)),
      exitCode: EXIT_PROBLEMS,
      hint: `stage them (git add :/${indexRel}) or discard them (git restore :/${indexRel}), then commit again`,
    });
  }
  gitAdd(top, indexRel, env);
  // `git commit PATH` commits a temporary index: stage in the real one too, or the next commit undoes this.
  const realIndex = realIndexOfPartialCommit(top, deps.cwd, env);
  if (realIndex) gitAdd(top, indexRel, { ...env, GIT_INDEX_FILE: realIndex });
  // A broken file in this commit stops it; one already in the repository only gets a warning.
  const touchedSet = new Set(touched);
  const problems = outcome.problems.map((p) => ({ ...p, blocking: touchedSet.has(joinRepoPath(rel, p.path)) }));
  const warnings = await unstagedWarnings({ top, rel, root, indexRel, unstaged }, env);
  return { rebuilt: true, touched, changed: outcome.changed, files: outcome.files, problems, warnings: [...folded, ...warnings] };
}

/** The index is built from the working tree: say where that differs from what is being committed. */
async function unstagedWarnings(at: { top: string; rel: string; root: string; indexRel: string; unstaged: string[] }, env: Record<string, string | undefined>): Promise<string[]> {
  const warnings = at.unstaged.filter((p) => p !== at.indexRel).map((p) => `${p} has unstaged changes; ${INDEX_FILE} was built from the working copy`);
  const untracked = untrackedPaths(at.top, at.rel, env);
  if (untracked.length === 0) return warnings;
  const indexed = new Set(listMemoryPaths(at.root).map((p) => joinRepoPath(at.rel, p)));
  for (const p of untracked) {
    if (indexed.has(p)) warnings.push(`${p} is listed in ${INDEX_FILE} but not tracked by git; \`git add\` it too`);
  }
  return warnings;
}
