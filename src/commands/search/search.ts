/** `memctx search`: check the filters, rank the files, and with `open` read the best hit and count it as read. */
import { MemctxError } from '../../kernel/errors.js';
import { parseDate } from '../../kernel/dates.js';
import { searchMemory, type SearchHit } from '../../kernel/rank/search.js';
import type { FileProblem, MemoryFile } from '../../kernel/store/types.js';
import { CLI_LABEL, checkListFilters, type Label } from '../../kernel/schema.js';
import { scanCached } from '../../kernel/rank/scan.js';
import { readStats, accessCount, recordAccess } from '../../kernel/state/stats.js';
import { readRegularFile } from '../../kernel/store/read-file.js';
import { MAX_FILE_BYTES } from '../../kernel/store/layout.js';
import { readMemoryFile } from '../../kernel/store/scan.js';
import { secretWarnings } from '../../kernel/lint/secrets.js';
import { join } from 'node:path';
import { dateByCommits, driftOf, type CommitTimes } from '../../kernel/rank/rank.js';
import { historyCache } from '../../kernel/state/history-cache.js';
import type { Env } from '../../kernel/sources/git.js';

export interface SearchOptions {
  root: string;
  query: string;
  /** At most this many hits (checked by the schema). */
  limit: number;
  type?: string;
  kind?: string;
  tag?: string;
  /** As typed: a whole number from 1 to 10. */
  minImportance?: string;
  /** As typed: a date (2026-11-01) or a period back from now (12h, 7d, 2w). */
  since?: string;
  /** Read the best hit and count it as read. */
  open?: boolean;
  /** How the caller's door spells the options in an error (`--type` on the command line, `type` through MCP). */
  label?: Label;
}

export interface SearchDeps {
  now: () => Date;
  /** For git (commit times of undated files, drift); by default the process's. */
  env?: Env;
  /** Last commit times of files with no date of their own (one `git log`). */
  commitTimes?: CommitTimes;
}

interface OpenedHit {
  path: string;
  /** The file's text as on disk. */
  text: string;
  /** The file parsed (or why it could not be). */
  file: MemoryFile | FileProblem;
  /** Secrets found in the text. */
  warnings: string[];
}

export interface SearchResult {
  hits: SearchHit[];
  /** Files that could not be read. */
  problems: FileProblem[];
  /** With `open`: the best hit, or null when nothing matched. */
  opened?: OpenedHit | null;
  /** Why the access could not be recorded in stats.json (the state folder). */
  accessError?: string;
}

/** `--since`: an ISO date or date-time, or a period back from now (h, d, w). */
function parseSince(value: string, now: Date, label: Label): Date {
  const period = /^\s*(\d+)\s*([hdw])\s*$/i.exec(value);
  if (period) {
    const hours = { h: 1, d: 24, w: 24 * 7 }[period[2].toLowerCase() as 'h' | 'd' | 'w'];
    return new Date(now.getTime() - Number(period[1]) * hours * 3_600_000);
  }
  const ms = parseDate(value);
  if (ms === undefined) throw new MemctxError(`${label('since')} must be a date (2026-11-01) or a period (12h, 7d, 2w), got "${value}"`);
  return new Date(ms);
}

function parseImportance(value: string, label: Label): number {
  const n = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || n < 1 || n > 10) throw new MemctxError(`${label('min_importance')} must be a whole number from 1 to 10, got "${value}"`);
  return n;
}

export async function search(options: SearchOptions, deps: SearchDeps = { now: () => new Date() }): Promise<SearchResult> {
  const { root, query } = options;
  if (!/[\p{L}\p{N}]/u.test(query)) throw new MemctxError('the search query has no words in it', { hint: 'give one or more words, e.g. memctx search "auth token"' });
  const now = deps.now();
  const { limit, label = CLI_LABEL } = options;
  const filters = {
    type: options.type,
    kind: options.kind,
    tag: options.tag,
    minImportance: options.minImportance === undefined ? undefined : parseImportance(options.minImportance, label),
    since: options.since === undefined ? undefined : parseSince(options.since, now, label),
  };
  // The pack cache: a warm search reads only the bodies it scans, and parses no frontmatter.
  const scan = await scanCached(root, now, undefined, {});
  if (filters.type !== undefined || filters.kind !== undefined) {
    checkListFilters(filters, scan.files, label);
  }
  const stats = readStats(root);
  // Dated and drift-checked as pack does, so both rank the same files the same way.
  const env = deps.env ?? process.env;
  dateByCommits(root, scan.files, env, deps.commitTimes);
  const history = historyCache(root);
  const { lines: drifted } = driftOf(root, scan.files, (path) => scan.textOf(path), env, history);
  const hits = searchMemory(scan.files, query, { now, accessCount: (p) => accessCount(stats, p), limit, filters, text: scan.textOf, drifted });
  const result: SearchResult = { hits, problems: scan.problems };

  const best = options.open && hits.length > 0 ? scan.files.find((f) => f.path === hits[0].path) : undefined;
  if (best) {
    try {
      await recordAccess(root, [best.path], now);
    } catch (err) {
      result.accessError = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    }
  }
  await history.save();
  try {
    await scan.save();
  } catch {
    // a cache that cannot be saved only makes the next search read again
  }
  if (options.open) result.opened = best ? await openHit(root, best.path) : null;
  return result;
}

async function openHit(root: string, path: string): Promise<OpenedHit> {
  const text = readRegularFile(join(root, path), { name: path, maxBytes: MAX_FILE_BYTES, what: 'memory file', inside: root }).toString('utf8');
  return { path, text, file: readMemoryFile(root, path), warnings: await secretWarnings([{ path, text }]) };
}
