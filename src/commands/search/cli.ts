import type { Command } from 'commander';
import { EXIT_OK, EXIT_PROBLEMS } from '../../kernel/errors.js';
import type { Context } from '../../kernel/cli/context.js';
import type { Runner } from '../../kernel/cli/run.js';
import { shellWord } from '../../kernel/text/shell.js';
import { SearchInput } from './schema.js';
import { CLI_LABEL, fromFlags, parseInput } from '../../kernel/schema.js';
import { search } from './search.js';
import { reportProblems } from '../../kernel/cli/problems.js';
import { renderTable } from '../../kernel/cli/table.js';
import { singleLine } from '../../kernel/markdown/escape.js';

interface SearchFlags {
  type?: string;
  kind?: string;
  tag?: string;
  minImportance?: string;
  since?: string;
  limit: string;
  open?: boolean;
}

export function register(program: Command, run: Runner): void {
  program
    .command('search')
    .description('ranked search: the files pack --task ranks first for these words, in its order')
    .argument('<query>', 'words to look for')
    .option('--type <type>', 'only this type (user, feedback, project, reference, other)')
    .option('--kind <kind>', 'only this kind (decision, issue, state, learning, session, note)')
    .option('--tag <tag>', 'only files with this tag')
    .option('--min-importance <n>', 'only files with importance >= n (1-10)')
    .option('--since <when>', 'only files updated since a date (2026-11-01) or for a period (12h, 7d, 2w)')
    .option('--limit <n>', 'at most n hits', '10')
    .option('--open', 'print the best hit in full (and count it as read)')
    .action(run(runSearch));
}

async function runSearch(ctx: Context, query: string, flags: SearchFlags): Promise<number> {
  // The options are checked by search's one schema (src/commands/search/schema.ts), as the MCP tool's are.
  const { open, ...options } = flags;
  const args = parseInput(SearchInput, fromFlags({ query, ...options }, ['limit', 'min_importance']), CLI_LABEL);
  const root = ctx.memoryDir();
  const { hits, problems, opened, accessError } = await search(
    { root, query, limit: args.limit ?? 10, type: args.type, kind: args.kind, tag: args.tag, minImportance: args.min_importance === undefined ? undefined : String(args.min_importance), since: args.since, open },
    { now: ctx.io.now, env: ctx.io.env },
  );
  reportProblems(ctx, root, problems);
  if (accessError) ctx.ui.warn(`could not record the access (${accessError})`);
  if (ctx.ui.json) {
    ctx.ui.printJson(open ? { hits, opened: opened ? opened.file : null } : hits);
  } else if (opened) {
    ctx.ui.memoryText(opened.text);
    for (const warning of opened.warnings) ctx.ui.warn(warning);
  } else if (hits.length === 0) {
    ctx.ui.info(`no memory file matches "${query}"`);
  } else {
    // Memory text: the stream lets SGR through as memctx's own colours, so each cell's controls are made visible here.
    const rows = hits.map((h) => [h.score.toFixed(2), ...[h.path, h.description ? `${h.name} — ${h.description}` : h.name].map(singleLine)]);
    ctx.ui.out(renderTable(rows, ctx.ui.chalk, ['score', 'path', 'name']));
    ctx.ui.note(ctx.ui.errChalk.dim(`open one with: ${ctx.memctx} show PATH (or ${ctx.memctx} search ${shellWord(query)} --open)\n`));
  }
  return problems.length ? EXIT_PROBLEMS : EXIT_OK;
}
