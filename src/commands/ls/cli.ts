import type { Command } from 'commander';
import { EXIT_OK, EXIT_PROBLEMS } from '../../kernel/errors.js';
import type { Context } from '../../kernel/cli/context.js';
import type { Runner } from '../../kernel/cli/run.js';
import { reportProblems } from '../../kernel/cli/problems.js';
import { ls } from './ls.js';
import { LsOptions } from './schema.js';
import { CLI_LABEL, fromFlags, parseInput } from '../../kernel/schema.js';
import { renderTable } from '../../kernel/cli/table.js';
import { singleLine } from '../../kernel/markdown/escape.js';

interface LsFlags {
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

async function runLs(ctx: Context, flags: LsFlags): Promise<number> {
  // The options are checked by ls's one schema (src/commands/ls/schema.ts).
  const options = parseInput(LsOptions, fromFlags({ ...flags }), CLI_LABEL);
  const root = ctx.memoryDir();
  const { files, problems } = await ls({ root, ...options }, { now: ctx.io.now });
  reportProblems(ctx, root, problems);
  if (ctx.ui.json) {
    ctx.ui.printJson(files.map((f) => ({ path: f.path, name: f.name, description: f.description, type: f.type ?? null, kind: f.kind ?? null, updated: f.updated ?? null, importance: f.importance, tags: f.tags })));
  } else {
    // Memory text: the stream lets SGR through as memctx's own colours, so each cell's controls are made visible here.
    const rows = files.map((f) => [f.path, f.type ?? 'other', f.kind ?? '-', f.updated ?? '-', f.description ? `${f.name} — ${f.description}` : f.name].map(singleLine));
    if (rows.length) ctx.ui.out(renderTable(rows, ctx.ui.chalk));
  }
  return problems.length ? EXIT_PROBLEMS : EXIT_OK;
}
