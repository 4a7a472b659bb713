import type { Command } from 'commander';
import { EXIT_OK, EXIT_PROBLEMS } from '../store/errors.js';
import type { IndexEntry } from '../store/types.js';
import { MEMORY_TYPES } from '../store/schema.js';
import { isSessionFile } from '../memindex/groups.js';
import type { Context } from './context.js';
import type { Runner } from './run.js';
import { reportProblems } from './problems.js';

export interface LsFilters {
  type?: string;
  kind?: string;
  tag?: string;
  archive?: boolean;
}

export function register(program: Command, run: Runner): void {
  program
    .command('ls')
    .description('list memory files (path, type, kind, updated, name and description)')
    .option('--type <type>', 'only this type (user, feedback, project, reference, other)')
    .option('--kind <kind>', 'only this kind (decision, issue, state, learning, session, note)')
    .option('--tag <tag>', 'only files with this tag')
    .option('--archive', 'include files in archive/')
    .action(run(runLs));
}

/** `--type other` is the index's Other group (no type, or not one of the known types); `--kind session` takes files in sessions/ too. */
export function matchesFilters(file: IndexEntry, filters: LsFilters): boolean {
  if (filters.type) {
    const type = file.type && (MEMORY_TYPES as readonly string[]).includes(file.type) ? file.type : 'other';
    if (type !== filters.type.toLowerCase() && file.type !== filters.type.toLowerCase()) return false;
  }
  if (filters.kind) {
    const kind = filters.kind.toLowerCase();
    if (file.kind !== kind && !(kind === 'session' && isSessionFile(file))) return false;
  }
  if (filters.tag && !file.tags.some((t) => t.toLowerCase() === filters.tag!.toLowerCase())) return false;
  return true;
}

async function runLs(ctx: Context, filters: LsFilters): Promise<number> {
  const root = ctx.memoryDir();
  const { scanIndexEntries } = await import('../store/scan-cache.js');
  const scan = scanIndexEntries(root, ctx.io.now().getTime(), { includeArchive: filters.archive });
  const files = scan.files.filter((f) => matchesFilters(f, filters));
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
