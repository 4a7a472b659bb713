/**
 * `memctx sessions`: the session files (newest first) with what each records of its session
 * (id, agent, model, start and end), and one field across them (`--field decisions --since 14d`),
 * so "why did we change this?" reads only Decisions.
 */
import { MemctxError } from '../../kernel/errors.js';
import type { FileProblem } from '../../kernel/store/types.js';
import { normalizeKey, SESSION_FIELDS } from '../../kernel/summary/fields.js';
import { builtInTemplate } from '../../kernel/summary/templates.js';
import { parseBody, NONE_RECORDED } from '../../kernel/summary/render.js';
import { scanIndexEntries } from '../../kernel/state/scan-cache.js';
import { readMemoryFile, isProblem } from '../../kernel/store/scan.js';
import { dateMs, sinceMs } from '../../kernel/dates.js';

export interface SessionsOptions {
  root: string;
  /** A field of the session template (goal, progress, decisions, changedFiles, blockers, nextSteps; any spelling normalizeKey accepts). */
  field?: string;
  /** Only sessions that ended at or after this: `14d`, `12h`, `2w`, or an ISO date. */
  since?: string;
  /** At most this many sessions (the newest). */
  limit?: number;
}

export interface SessionsDeps {
  now: () => Date;
}

interface SessionEntry {
  path: string;
  /** When the session ended, as far as the file says (`ended`, else `updated`, else `created`). */
  at?: string;
  sessionId?: string;
  agent?: string;
  model?: string;
  started?: string;
  ended?: string;
  goal?: string;
  /** The asked field's items (with --field); `none recorded` is an empty list. */
  items?: string[];
}

export interface SessionsResult {
  sessions: SessionEntry[];
  /** The field, normalised (with --field). */
  field?: string;
  problems: FileProblem[];
}

const str = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : value instanceof Date ? value.toISOString() : undefined);

export async function sessions(options: SessionsOptions, deps: SessionsDeps): Promise<SessionsResult> {
  const now = deps.now().getTime();
  const ms = (value: string | undefined) => (Number.isNaN(dateMs(value)) ? 0 : dateMs(value));
  const field = options.field === undefined ? undefined : normalizeKey(options.field);
  if (field !== undefined && !(SESSION_FIELDS as readonly string[]).includes(field)) {
    throw new MemctxError(`--field: the session template has no field "${options.field}"`, { hint: `use one of: ${SESSION_FIELDS.join(', ')}` });
  }
  const since = options.since === undefined ? undefined : sinceMs(options.since, now);
  if (options.since !== undefined && since === undefined) {
    throw new MemctxError(`--since: "${options.since}" is neither a span (30m, 12h, 14d, 2w) nor a date`, { hint: 'for example --since 14d or --since 2026-11-01' });
  }
  const template = builtInTemplate('session');
  const scan = await scanIndexEntries(options.root, now);
  const problems: FileProblem[] = [...scan.problems];
  const out: SessionEntry[] = [];
  for (const entry of scan.files) {
    if (entry.kind !== 'session') continue;
    const file = readMemoryFile(options.root, entry.path);
    if (isProblem(file)) {
      problems.push(file);
      continue;
    }
    const d = file.data;
    const at = str(d.ended) ?? file.updated ?? file.created;
    if (since !== undefined && (at === undefined || ms(at) < since)) continue;
    // another template's file in sessions/ has other headings: only its frontmatter is read
    const values = d.template === undefined ? parseBody(template, file.body) : undefined;
    const items = (key: string) => (values?.[key] ?? []).filter((v) => v !== NONE_RECORDED);
    out.push({
      path: file.path,
      at,
      sessionId: str(d.session_id),
      agent: str(d.agent),
      model: str(d.model),
      started: str(d.started),
      ended: str(d.ended),
      goal: items('goal')[0] ?? (file.description || undefined),
      items: field === undefined ? undefined : items(field),
    });
  }
  out.sort((a, b) => ms(b.at) - ms(a.at) || (a.path < b.path ? 1 : -1));
  return { sessions: options.limit === undefined ? out : out.slice(0, options.limit), field, problems };
}
