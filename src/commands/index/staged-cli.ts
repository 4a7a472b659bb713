/** `memctx index --staged`, the pre-commit hook's command: the use case is in src/commands/index/staged.ts. */
import { join } from 'node:path';
import { memoryDirIsExplicit, type Context } from '../../kernel/cli/context.js';
import { EXIT_OK, EXIT_PROBLEMS } from '../../kernel/errors.js';
import type { StagedResult } from './git-staged.js';
import { INDEX_FILE } from '../../kernel/store/layout.js';
import { displayPath } from '../../kernel/store/paths.js';
import { indexStaged } from './staged.js';

export async function runStagedIndex(ctx: Context, root: string): Promise<number> {
  const outcome = await indexStaged({ root, explicitDir: memoryDirIsExplicit(ctx) }, { cwd: ctx.io.cwd, env: ctx.io.env });
  if (!outcome.rebuilt) {
    if (ctx.ui.json) ctx.ui.printJson(result(outcome.touched));
    else if (outcome.skipped) ctx.ui.warn(outcome.skipped);
    return EXIT_OK;
  }
  for (const { blocking, ...problem } of outcome.problems) {
    ctx.ui.problem({ ...problem, path: displayPath(ctx.io.cwd, join(root, problem.path)) }, blocking ? 'error' : 'warning');
  }
  for (const warning of outcome.warnings) ctx.ui.warn(warning);
  const problems = outcome.problems.map(({ blocking: _, ...problem }) => problem);
  if (ctx.ui.json) {
    ctx.ui.printJson({ ...result(outcome.touched), rebuilt: true, changed: outcome.changed, staged: true, files: outcome.files, problems });
  } else {
    ctx.ui.info(`memctx: ${INDEX_FILE} ${outcome.changed ? 'rebuilt and staged' : 'is up to date'} (${outcome.files} ${outcome.files === 1 ? 'file' : 'files'})`);
  }
  const blocking = outcome.problems.filter((p) => p.blocking).length;
  if (blocking) {
    ctx.ui.note(`memctx: commit stopped: fix the memory file${blocking > 1 ? 's' : ''} above, stage and commit again (or commit with --no-verify)\n`, { quietable: false });
    return EXIT_PROBLEMS;
  }
  return EXIT_OK;
}

function result(touched: string[]): StagedResult {
  return { touched, rebuilt: false, changed: false, staged: false, files: 0 };
}
