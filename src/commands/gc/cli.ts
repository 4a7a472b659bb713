import type { Command } from 'commander';
import { EXIT_OK, EXIT_PROBLEMS } from '../../kernel/errors.js';
import type { Context } from '../../kernel/cli/context.js';
import type { Runner } from '../../kernel/cli/run.js';
import { loadLintSetup } from '../../kernel/cli/lint-setup.js';
import { gc } from './gc.js';
import { renderTable } from '../../kernel/cli/table.js';

export function register(program: Command, run: Runner): void {
  program
    .command('gc')
    .description('list memories due for archival (expired, old low-importance decisions, resolved issues, superseded states, unused learnings); --apply moves them to archive/')
    .option('--apply', 'move the candidates to archive/ (keeping their paths; never overwrites, never deletes) and re-index')
    .action(run(runGc));
}

async function runGc(ctx: Context, flags: { apply?: boolean }): Promise<number> {
  const { root, config } = loadLintSetup(ctx);
  const result = await gc({ root, thresholds: config.thresholds, apply: Boolean(flags.apply) }, { now: ctx.io.now, warn: (message) => ctx.ui.warn(message) });
  if (!result.apply) {
    const { candidates } = result;
    if (ctx.ui.json) {
      ctx.ui.printJson({ apply: false, candidates });
    } else if (candidates.length === 0) {
      ctx.ui.info('nothing to archive');
    } else {
      ctx.ui.out(renderTable(candidates.map((c) => [c.path, c.reason]), ctx.ui.chalk));
      ctx.ui.info(`${candidates.length} file${candidates.length === 1 ? '' : 's'} would be moved to archive/; run \`memctx gc --apply\` to move them`);
    }
    return EXIT_OK;
  }
  const { moved, skipped, reindexed } = result;
  if (ctx.ui.json) {
    ctx.ui.printJson({ apply: true, moved, skipped, reindexed });
  } else {
    for (const m of moved) ctx.ui.info(`archived ${m.path} → ${m.to} (${m.reason})`);
    if (moved.length === 0 && skipped.length === 0) ctx.ui.info('nothing to archive');
    else if (moved.length) ctx.ui.info(`${moved.length} file${moved.length === 1 ? '' : 's'} moved to archive/${reindexed ? '; MEMORY.md rebuilt' : ''}`);
  }
  for (const s of skipped) ctx.ui.problem({ path: s.path, message: `not archived: ${s.skipped}` }, 'warning');
  return skipped.length ? EXIT_PROBLEMS : EXIT_OK;
}
