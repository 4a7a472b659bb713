import type { Command } from 'commander';
import { EXIT_OK, EXIT_PROBLEMS, MemctxError } from '../errors.js';
import type { Context } from './context.js';
import { parsePositiveInt, type Runner } from './run.js';
import { shellWord } from '../text/shell.js';
import { parseDate } from '../dates.js';

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
    .description('ranked search: text match, importance, recency and how often a file was read')
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

/** `--since`: an ISO date or date-time, or a period back from now (h, d, w). */
export function parseSince(value: string, now: Date): Date {
  const period = /^\s*(\d+)\s*([hdw])\s*$/i.exec(value);
  if (period) {
    const hours = { h: 1, d: 24, w: 24 * 7 }[period[2].toLowerCase() as 'h' | 'd' | 'w'];
    return new Date(now.getTime() - Number(period[1]) * hours * 3_600_000);
  }
  const ms = parseDate(value);
  if (ms === undefined) throw new MemctxError(`--since must be a date (2026-11-01) or a period (12h, 7d, 2w), got "${value}"`);
  return new Date(ms);
}

function parseImportance(value: string): number {
  const n = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || n < 1 || n > 10) throw new MemctxError(`--min-importance must be a whole number from 1 to 10, got "${value}"`);
  return n;
}

async function runSearch(ctx: Context, query: string, flags: SearchFlags): Promise<number> {
  if (!/[\p{L}\p{N}]/u.test(query)) throw new MemctxError('the search query has no words in it', { hint: 'give one or more words, e.g. memctx search "auth token"' });
  const now = ctx.io.now();
  const limit = parsePositiveInt(flags.limit, '--limit');
  const filters = {
    type: flags.type,
    kind: flags.kind,
    tag: flags.tag,
    minImportance: flags.minImportance === undefined ? undefined : parseImportance(flags.minImportance),
    since: flags.since === undefined ? undefined : parseSince(flags.since, now),
  };
  const root = ctx.memoryDir();
  const { scanCached } = await import('../actions/pack.js');
  const { readStats, accessCount, recordAccess } = await import('../cache/stats.js');
  const { searchMemory } = await import('../search/rank.js');
  const { reportProblems } = await import('./problems.js');
  // The pack cache: a warm search reads only the bodies it scans, and parses no frontmatter.
  const { scan } = await scanCached(root, now);
  const { checkListFilters } = await import('./options.js');
  checkListFilters(filters, scan.files);
  reportProblems(ctx, root, scan.problems);
  const stats = readStats(root);
  const hits = searchMemory(scan.files, query, { now, accessCount: (p) => accessCount(stats, p), limit, filters });

  let opened: { path: string } | undefined;
  if (flags.open && hits.length > 0) {
    opened = scan.files.find((f) => f.path === hits[0].path);
    try {
      await recordAccess(root, [hits[0].path], now);
    } catch (err) {
      ctx.ui.warn(`could not record the access in .memctx/stats.json (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
  }

  try {
    await scan.save();
  } catch {
    // a cache that cannot be saved only makes the next search read again
  }
  if (ctx.ui.json) {
    ctx.ui.printJson(flags.open ? { hits, opened: opened ? await openedFile(root, opened.path) : null } : hits);
  } else if (opened) {
    const { readRegularFile } = await import('../store/read-file.js');
    const { MAX_FILE_BYTES } = await import('../store/layout.js');
    const { join } = await import('node:path');
    const text = readRegularFile(join(root, opened.path), { name: opened.path, maxBytes: MAX_FILE_BYTES, what: 'memory file' }).toString('utf8');
    ctx.ui.out(text);
    const { secretWarnings } = await import('../lint/secrets.js');
    for (const warning of await secretWarnings([{ path: opened.path, text }])) ctx.ui.warn(warning);
  } else if (hits.length === 0) {
    ctx.ui.info(`no memory file matches "${query}"`);
  } else {
    const { renderTable } = await import('./ui/table.js');
    const rows = hits.map((h) => [h.score.toFixed(2), h.path, h.description ? `${h.name} — ${h.description}` : h.name]);
    ctx.ui.out(renderTable(rows, ctx.ui.chalk, ['score', 'path', 'name']));
    ctx.ui.note(ctx.ui.errChalk.dim(`open one with: ${ctx.memctx} show PATH (or ${ctx.memctx} search ${shellWord(query)} --open)\n`));
  }
  return scan.problems.length ? EXIT_PROBLEMS : EXIT_OK;
}

/** The opened hit as `--json --open` has always given it: the parsed file. */
async function openedFile(root: string, path: string): Promise<unknown> {
  const { readMemoryFile } = await import('../store/scan.js');
  return readMemoryFile(root, path);
}
