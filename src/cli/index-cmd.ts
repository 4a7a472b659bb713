import type { Command } from 'commander';
import { EXIT_OK, EXIT_PROBLEMS } from '../errors.js';
import type { Context } from './context.js';
import type { Runner } from './run.js';
import { reportProblems } from './problems.js';

interface IndexFlags {
  check?: boolean;
  staged?: boolean;
}

export function register(program: Command, run: Runner): void {
  program
    .command('index')
    .description('rebuild MEMORY.md from the memory files (text outside the markers is kept)')
    .option('--check', 'exit 1 and say what differs when MEMORY.md is out of date; write nothing')
    .option('--staged', 'for the pre-commit hook: rebuild and stage MEMORY.md only when memory files are staged')
    .action(run(runIndex));
}

async function runIndex(ctx: Context, flags: IndexFlags): Promise<number> {
  // The hook runs in every commit: a repository without a memory directory is not an error there.
  const root = ctx.memoryDir({ allowMissing: Boolean(flags.staged) });
  if (flags.staged) {
    const { runStagedIndex } = await import('./staged.js');
    return runStagedIndex(ctx, root);
  }
  const { planIndex, rebuildIndex } = await import('../actions/reindex.js');
  if (flags.check) return checkIndex(ctx, root, await planIndex(root));
  // The common case is an index that is already current: find that out without taking the lock.
  let result = await planIndex(root);
  if (result.changed) {
    const { withMemoryLock } = await import('../store/write.js');
    result = await withMemoryLock(root, () => rebuildIndex(root));
  }
  reportProblems(ctx, root, result.problems);
  if (ctx.ui.json) ctx.ui.printJson({ changed: result.changed, files: result.files, problems: result.problems });
  else ctx.ui.info(result.changed ? `MEMORY.md rebuilt (${files(result.files)})` : `MEMORY.md is up to date (${files(result.files)})`);
  return result.problems.length ? EXIT_PROBLEMS : EXIT_OK;
}

async function checkIndex(ctx: Context, root: string, plan: import('../actions/reindex.js').ReindexResult): Promise<number> {
  const { diffIndex } = await import('../memindex/merge.js');
  reportProblems(ctx, root, plan.problems);
  const diff = diffIndex(plan.previous, plan.text);
  if (ctx.ui.json) {
    ctx.ui.printJson({ upToDate: !plan.changed, exists: plan.previous !== undefined, ...diff, problems: plan.problems });
  } else if (plan.changed) {
    const { stderr } = ctx.io;
    stderr.write(plan.previous === undefined ? 'MEMORY.md does not exist\n' : 'MEMORY.md is out of date\n');
    for (const line of diff.missing) stderr.write(`  + ${line}\n`);
    for (const line of diff.unexpected) stderr.write(`  - ${line}\n`);
    if (plan.previous !== undefined && !diff.missing.length && !diff.unexpected.length) stderr.write('  (layout or limits differ)\n');
    stderr.write('  run `memctx index` to rebuild it\n');
  } else {
    ctx.ui.info(`MEMORY.md is up to date (${files(plan.files)})`);
  }
  return plan.changed || plan.problems.length ? EXIT_PROBLEMS : EXIT_OK;
}

const files = (n: number) => (n === 1 ? '1 file' : `${n} files`);
