import type { Command } from 'commander';
import { EXIT_OK, EXIT_PROBLEMS } from '../errors.js';
import type { ArchiveCandidate } from '../lifecycle/archive.js';
import type { Context } from './context.js';
import type { Runner } from './run.js';

export function register(program: Command, run: Runner): void {
  program
    .command('gc')
    .description('list memories due for archival (expired, old low-importance decisions, resolved issues, superseded states, unused learnings); --apply moves them to archive/')
    .option('--apply', 'move the candidates to archive/ (keeping their paths; never overwrites, never deletes) and re-index')
    .action(run(runGc));
}

async function plan(ctx: Context, root: string, thresholds: import('../lint/types.js').Thresholds): Promise<ArchiveCandidate[]> {
  const { scanMemoryDir } = await import('../store/scan.js');
  const { readAccessTimes } = await import('../cache/stats.js');
  const { archiveCandidates } = await import('../lifecycle/archive.js');
  const scan = scanMemoryDir(root);
  return archiveCandidates(scan.files, { now: ctx.io.now(), thresholds, lastAccess: readAccessTimes(root) });
}

async function runGc(ctx: Context, flags: { apply?: boolean }): Promise<number> {
  const { loadLintSetup } = await import('./lint-setup.js');
  const { root, config } = loadLintSetup(ctx);
  const { archivePath, moveToArchive } = await import('../store/archive.js');
  const { renderTable } = await import('./ui/table.js');
  if (!flags.apply) {
    const candidates = await plan(ctx, root, config.thresholds);
    if (ctx.ui.json) {
      ctx.ui.printJson({ apply: false, candidates: candidates.map((c) => ({ ...c, to: archivePath(c.path) })) });
    } else if (candidates.length === 0) {
      ctx.ui.info('nothing to archive');
    } else {
      ctx.ui.out(renderTable(candidates.map((c) => [c.path, c.reason]), ctx.ui.chalk));
      ctx.ui.info(`${candidates.length} file${candidates.length === 1 ? '' : 's'} would be moved to archive/; run \`memctx gc --apply\` to move them`);
    }
    return EXIT_OK;
  }
  const { writeAndReindex } = await import('../actions/reindex.js');
  const { value: moves, index } = await writeAndReindex(root, async () => {
    const candidates = await plan(ctx, root, config.thresholds);
    return candidates.map((c) => ({ ...moveToArchive(root, c.path), reason: c.reason, rule: c.rule }));
  }, (message) => ctx.ui.warn(message));
  const outcome = { moves, reindexed: index?.changed ?? false };
  const moved = outcome.moves.filter((m) => m.moved);
  const skipped = outcome.moves.filter((m) => !m.moved);
  if (ctx.ui.json) {
    ctx.ui.printJson({ apply: true, moved, skipped, reindexed: outcome.reindexed });
  } else {
    for (const m of moved) ctx.ui.info(`archived ${m.path} → ${m.to} (${m.reason})`);
    if (moved.length === 0 && skipped.length === 0) ctx.ui.info('nothing to archive');
    else if (moved.length) ctx.ui.info(`${moved.length} file${moved.length === 1 ? '' : 's'} moved to archive/${outcome.reindexed ? '; MEMORY.md rebuilt' : ''}`);
  }
  for (const s of skipped) ctx.ui.problem({ path: s.path, message: `not archived: ${s.skipped}` }, 'warning');
  return skipped.length ? EXIT_PROBLEMS : EXIT_OK;
}
