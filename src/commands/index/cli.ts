import type { Command } from 'commander';
import { EXIT_OK, EXIT_PROBLEMS } from '../../kernel/errors.js';
import type { Context } from '../../kernel/cli/context.js';
import type { Runner } from '../../kernel/cli/run.js';
import { reportProblems } from '../../kernel/cli/problems.js';
import type { ReindexResult } from '../../kernel/memindex/reindex.js';
import { runStagedIndex } from './staged-cli.js';
import { indexMemory } from './index.js';

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

export async function runIndex(ctx: Context, flags: IndexFlags): Promise<number> {
  // The hook runs in every commit: a repository without a memory directory is not an error there.
  const root = ctx.memoryDir({ allowMissing: Boolean(flags.staged), confined: Boolean(flags.staged) });
  if (flags.staged) {
    return runStagedIndex(ctx, root);
  }
  const outcome = await indexMemory({ root, check: flags.check });
  if (outcome.check) return checkIndex(ctx, root, outcome);
  const { result } = outcome;
  for (const warning of outcome.warnings) ctx.ui.warn(warning);
  reportProblems(ctx, root, result.problems);
  if (ctx.ui.json) ctx.ui.printJson({ changed: result.changed, files: result.files, problems: result.problems });
  else ctx.ui.info(result.changed ? `MEMORY.md rebuilt (${files(result.files)})` : `MEMORY.md is up to date (${files(result.files)})`);
  return result.problems.length ? EXIT_PROBLEMS : EXIT_OK;
}

function checkIndex(ctx: Context, root: string, { plan, missing, unexpected }: { plan: ReindexResult; missing: string[]; unexpected: string[] }): number {
  reportProblems(ctx, root, plan.problems);
  if (ctx.ui.json) {
    ctx.ui.printJson({ upToDate: !plan.changed, exists: plan.previous !== undefined, missing, unexpected, problems: plan.problems });
  } else if (plan.changed) {
    const lines = [
      plan.previous === undefined ? 'MEMORY.md does not exist' : 'MEMORY.md is out of date',
      ...missing.map((line) => `  + ${line}`),
      ...unexpected.map((line) => `  - ${line}`),
      ...(plan.previous !== undefined && !missing.length && !unexpected.length ? ['  (layout or limits differ)'] : []),
      '  run `memctx index` to rebuild it',
    ];
    ctx.ui.note(lines.map((line) => `${line}\n`).join(''), { quietable: false });
  } else {
    ctx.ui.info(`MEMORY.md is up to date (${files(plan.files)})`);
  }
  return plan.changed || plan.problems.length ? EXIT_PROBLEMS : EXIT_OK;
}

const files = (n: number) => (n === 1 ? '1 file' : `${n} files`);
