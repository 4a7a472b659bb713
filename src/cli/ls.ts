import type { Command } from 'commander';
import { EXIT_OK, EXIT_PROBLEMS } from '../errors.js';
import { matchesListFilters } from '../memindex/groups.js';
import type { Context } from './context.js';
import type { Runner } from './run.js';
import { reportProblems } from './problems.js';
import { checkListFilters } from './options.js';

export interface LsFilters {
  type?: string;
  kind?: string;
  tag?: string;
  archive?: boolean;
  unlisted?: boolean;
}

export function register(program: Command, run: Runner): void {
  program
    .command('ls')
    .description('list memory files (path, type, kind, updated, name and description)')
    .option('--type <type>', 'only this type (user, feedback, project, reference, other)')
    .option('--kind <kind>', 'only this kind (decision, issue, state, learning, session, note)')
    .option('--tag <tag>', 'only files with this tag')
    .option('--archive', 'include files in archive/')
    .option('--unlisted', "only files MEMORY.md's generated block does not list (its '… and N more' lines)")
    .action(run(runLs));
}

async function runLs(ctx: Context, filters: LsFilters): Promise<number> {
  const root = ctx.memoryDir();
  const { scanIndexEntries } = await import('../cache/scan-cache.js');
  const scan = await scanIndexEntries(root, ctx.io.now().getTime(), { includeArchive: filters.archive });
  checkListFilters(filters, scan.files);
  const hidden = filters.unlisted ? await unlistedFilter(root) : () => true;
  const files = scan.files.filter((f) => matchesListFilters(f, filters) && hidden(f.path));
  reportProblems(ctx, root, scan.problems);
  if (ctx.ui.json) {
    ctx.ui.printJson(files.map((f) => ({ path: f.path, name: f.name, description: f.description, type: f.type ?? null, kind: f.kind ?? null, updated: f.updated ?? null, importance: f.importance, tags: f.tags })));
  } else {
    const { renderTable } = await import('./ui/table.js');
    const rows = files.map((f) => [f.path, f.type ?? 'other', f.kind ?? '-', f.updated ?? '-', f.description ? `${f.name} — ${f.description}` : f.name]);
    if (rows.length) ctx.ui.out(renderTable(rows, ctx.ui.chalk));
  }
  return scan.problems.length ? EXIT_PROBLEMS : EXIT_OK;
}

/** A test for paths MEMORY.md's generated block does not link to (all paths when it has no block). */
async function unlistedFilter(root: string): Promise<(path: string) => boolean> {
  const { readIndexFile } = await import('../store/index-file.js');
  const { splitIndex, IndexMarkerError } = await import('../memindex/merge.js');
  const { linkedPaths } = await import('../markdown/links.js');
  let block: string | undefined;
  try {
    block = splitIndex(readIndexFile(root)).block;
  } catch (err) {
    if (!(err instanceof IndexMarkerError)) throw err;
  }
  const listed = linkedPaths(block ?? '');
  return (path) => !listed.has(path);
}
