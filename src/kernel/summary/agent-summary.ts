/**
 * The agent's own session summary (design §7): the six fields, each given (an empty one said
 * explicitly, e.g. "none"), within the token maximum. A summary that breaks the schema is refused
 * with a message that tells the agent what to add or shorten; nothing is written.
 */
import { resolve } from 'node:path';
import { isInside, relativeInside } from '../store/paths.js';
import { changedFiles } from '../transcript/files.js';
import { condense } from '../transcript/extract.js';
import type { TranscriptItem } from '../transcript/types.js';
import { isRecord } from '../values.js';
import { emptyValues, SESSION_FIELDS, type FieldValues } from './fields.js';
import { LONG_OUTPUT_RULE, MAX_ITEM_LINES } from './limits.js';

/** The fields as the agent names them (the MCP tool's arguments, the keys of --from). */
const AGENT_FIELD_NAMES: Record<(typeof SESSION_FIELDS)[number], string> = {
  goal: 'goal',
  progress: 'progress',
  decisions: 'decisions',
  changedFiles: 'changed_files',
  blockers: 'blockers',
  nextSteps: 'next_steps',
};

/** The frontmatter mark of a summary the agent wrote (`written_by: agent`). */
export const WRITTEN_BY_AGENT = { written_by: 'agent' } as const;

/** Why a summary with a pasted block is refused (the first such item), or undefined. */
export function longItemMessage(values: FieldValues): string | undefined {
  for (const key of SESSION_FIELDS) {
    const items = values[key] ?? [];
    const at = items.findIndex((item) => item.trimEnd().split('\n').length > MAX_ITEM_LINES);
    if (at < 0) continue;
    const lines = items[at].trimEnd().split('\n').length;
    return `${AGENT_FIELD_NAMES[key]} item ${at + 1} is ${lines} lines, over ${MAX_ITEM_LINES}: nothing was written; ${LONG_OUTPUT_RULE}`;
  }
  return undefined;
}

/**
 * Why a summary holding a possible secret is refused, naming the fields and items (never the secret), or
 * undefined. The scanner (lint/secrets.ts) is passed in: the flush hook, which loads this module, never scans.
 */
export async function secretMessage(values: FieldValues, { findSecrets, maybeSecret }: Pick<typeof import('../lint/secrets.js'), 'findSecrets' | 'maybeSecret'>): Promise<string | undefined> {
  const items = SESSION_FIELDS.flatMap((key) => (values[key] ?? []).map((text, i) => ({ path: `${AGENT_FIELD_NAMES[key]} item ${i + 1}`, text })));
  if (!items.some((item) => maybeSecret(item.text))) return undefined;
  const hits = await findSecrets(items);
  if (hits.length === 0) return undefined;
  const where = [...new Set(hits.map((hit) => `${hit.path} (${hit.label})`))];
  return `the session summary holds a possible secret in ${where.join(', ')}: nothing was written; name the credential and where it is kept, never its value, and call it again (rotate it if it was real)`;
}

const STOP_WORDS = new Set(['a', 'an', 'the', 'to', 'and', 'of', 'in', 'on', 'for', 'with', 'it', 'is', 'are', 'be', 'all', 'its', 'this', 'that', 'then', 'now', 'up']);

/** A text's content words, crudely stemmed ("committed", "commits" → "commit"). */
export function contentWords(text: string): Set<string> {
  const words = text.toLowerCase().match(/[a-z0-9][a-z0-9_.-]*/g) ?? [];
  return new Set(words.filter((w) => !STOP_WORDS.has(w)).map((w) => w.replace(/(?:ing|ed|es|s)$/, '').replace(/(.)\1$/, '$1').replace(/e$/, '')));
}

/** A progress line that says the work is not done ("did not deploy yet", "tests still failing"). */
const NOT_DONE = /\b(?:not|no|never|yet|still|pending|remaining|todo|blocked|fail(?:s|ed|ing)?|cannot|can't|won't|didn't|isn't|aren't|wasn't|doesn't)\b/i;

/** True when the done item says all the open item says (two words at least): the open item is done. */
export function saysDone(open: string, done: string): boolean {
  if (NOT_DONE.test(done)) return false;
  const want = contentWords(open);
  if (want.size < 2) return false;
  const have = contentWords(done);
  return [...want].every((w) => have.has(w));
}

/** Why a summary whose next step is already under progress is refused, or undefined. */
export function contradictionMessage(values: FieldValues): string | undefined {
  const progress = values.progress ?? [];
  for (const [i, next] of (values.nextSteps ?? []).entries()) {
    const at = progress.findIndex((done) => saysDone(next, done));
    if (at >= 0) return `next_steps item ${i + 1} ("${next}") is done by progress item ${at + 1} ("${progress[at]}"): nothing was written; write each item once, where it is true now (finished work under progress, what remains under next_steps)`;
  }
  return undefined;
}

/** The agent names of the six fields that have no item. */
export function missingAgentFields(values: FieldValues): string[] {
  return SESSION_FIELDS.filter((key) => !values[key]?.some((item) => item.trim() !== '')).map((key) => AGENT_FIELD_NAMES[key]);
}

export function missingFieldsMessage(missing: string[]): string {
  return `the session summary is missing ${missing.join(', ')}: nothing was written; every field must be given (write "none" for one with nothing in it)`;
}

/** Why an over-long summary was refused, naming the fields that cost most. */
export function overMaxMessage(values: FieldValues, tokens: number, max: number, target: number, count: (text: string) => number): string {
  const sizes = SESSION_FIELDS.map((key) => ({ name: AGENT_FIELD_NAMES[key], tokens: count((values[key] ?? []).join('\n')) }))
    .filter((s) => s.tokens > 0)
    .sort((a, b) => b.tokens - a.tokens)
    .slice(0, 3);
  return (
    `the session summary is ${tokens} tokens, over the maximum of ${max}: nothing was written. ` +
    `Shorten it by at least ${tokens - max} tokens (aim for about ${target}) and call it again; ` +
    `the longest fields: ${sizes.map((s) => `${s.name} ${s.tokens} tokens`).join(', ')}`
  );
}

/** The MCP tool's name as Claude Code shows it (`mcp__memctx__flush`), or `memctx flush` run in a shell (not the hook). */
const SUMMARY_TOOL = /(?:^|__|[./])flush$/;
const SUMMARY_COMMAND = /\bmemctx\b[^\n;&|]*\sflush\b(?![^\n;&|]*--hook)/;

/** True when a tool call is the agent writing its session summary. */
export function isSummaryCall(item: Pick<TranscriptItem, 'kind' | 'toolName' | 'toolInput'>): boolean {
  if (item.kind !== 'tool_call') return false;
  const name = item.toolName ?? '';
  if (/memctx/i.test(name) && SUMMARY_TOOL.test(name)) return true;
  const input = item.toolInput;
  const command = isRecord(input) ? input.command ?? input.cmd : undefined;
  const text = Array.isArray(command) ? command.join(' ') : typeof command === 'string' ? command : '';
  return SUMMARY_COMMAND.test(text);
}

/** The main conversation's items after the agent's last summary call, or undefined when it made none. */
export function afterAgentSummary(items: TranscriptItem[]): TranscriptItem[] | undefined {
  for (let i = items.length - 1; i >= 0; i--) {
    if (!items[i].sidechain && isSummaryCall(items[i])) return items.slice(i + 1).filter((item) => !item.sidechain);
  }
  return undefined;
}

export interface LaterFacts {
  /** Files changed after the summary, relative to the session's working directory. */
  files: string[];
  /** The agent's last message, when it did more work after the summary. */
  lastLine?: string;
  /** What the offline extraction finds completed after the summary, and still open at the end. */
  done?: string[];
  open?: string[];
}

/** What the transcript proves happened after the summary: files written inside `cwd` (not in `memoryDir`), the last state line. */
export function laterFacts(later: TranscriptItem[], cwd: string, memoryDir: string, fields?: { progress?: string[]; nextSteps?: string[] }): LaterFacts {
  const files = changedFiles(later).flatMap((f) => {
    const abs = resolve(cwd, f.path);
    const rel = relativeInside(cwd, abs);
    return rel && !isInside(memoryDir, abs) ? [rel] : [];
  });
  const worked = later.some((item) => item.kind === 'tool_call' && !isSummaryCall(item));
  const last = [...later].reverse().find((item) => item.kind === 'message' && item.role === 'assistant' && !item.meta && item.text.trim() !== '');
  const facts: LaterFacts = { files, lastLine: worked && last ? condense(last.text) : undefined };
  if (fields) Object.assign(facts, { done: fields.progress ?? [], open: (fields.nextSteps ?? []).filter((item) => !NONE.test(item)) });
  return facts;
}

const NONE = /^(?:none|n\/a|nothing)\b/i;

/** The marks of the items memctx adds to an agent's summary at SessionEnd/PreCompact. */
const AFTER = {
  file: ' (changed after the summary)',
  done: ' (done after the summary)',
  open: ' (open after the summary)',
  last: 'After the summary: ',
} as const;

/** The frontmatter note that says which part of a revised summary the agent wrote. */
export const REVISED_NOTE = { revised: 'by memctx from the transcript: items marked "after the summary"; the rest as the agent wrote it' } as const;

/** The summary as the agent wrote it: what an earlier SessionEnd/PreCompact added taken out again (so a resumed session is revised once, not once per end). */
export function agentPart(values: FieldValues): FieldValues {
  const out = emptyValues();
  for (const [key, items] of Object.entries(values)) out[key] = [...items];
  const progress = out.progress ?? [];
  const finished = progress.filter((item) => item.endsWith(AFTER.done)).map((item) => item.slice(0, -AFTER.done.length));
  out.progress = progress.filter((item) => !item.endsWith(AFTER.done) && !item.startsWith(AFTER.last));
  if (values.nextSteps || finished.length) out.nextSteps = [...finished, ...(out.nextSteps ?? []).filter((item) => !item.endsWith(AFTER.open))];
  if (values.changedFiles) out.changedFiles = out.changedFiles.filter((item) => !item.endsWith(AFTER.file));
  for (const key of ['changedFiles', 'nextSteps'] as const) if (out[key]?.length === 0) out[key] = ['none'];
  return out;
}

/** True when an item says the field is empty ("none"). */
const isNone = (items: string[]) => items.length === 1 && NONE.test(items[0]);

/**
 * The agent's summary revised with later facts: next steps finished after it move to Progress, open
 * items found after it join Next Steps, new files join Changed Files, the last state line ends
 * Progress; each added item is marked. `added` says what changed.
 */
export function completeAgentValues(values: FieldValues, later: LaterFacts): { values: FieldValues; added: string[] } {
  const out = agentPart(values);
  const added: string[] = [];
  const listed = out.changedFiles ?? [];
  const fresh = later.files.filter((path) => !listed.some((item) => item === path || item.startsWith(`${path} `)));
  if (fresh.length) {
    out.changedFiles = [...(isNone(listed) ? [] : listed), ...fresh.map((path) => `${path}${AFTER.file}`)];
    added.push(`${fresh.length} file(s) changed after it`);
  }
  const next = isNone(out.nextSteps ?? []) ? [] : out.nextSteps ?? [];
  const finished = next.filter((item) => (later.done ?? []).some((done) => saysDone(item, done)));
  const open = (later.open ?? []).filter((item) => !next.some((n) => saysDone(item, n) || saysDone(n, item)) && !(later.done ?? []).some((done) => saysDone(item, done)));
  if (finished.length) {
    out.progress = [...(out.progress ?? []), ...finished.map((item) => `${item}${AFTER.done}`)];
    added.push(`${finished.length} next step(s) finished after it`);
  }
  if (finished.length || open.length) {
    const remaining = [...next.filter((item) => !finished.includes(item)), ...open.map((item) => `${item}${AFTER.open}`)];
    out.nextSteps = remaining.length ? remaining : ['none'];
    if (open.length) added.push(`${open.length} open item(s) found after it`);
  }
  if (later.lastLine) {
    out.progress = [...(out.progress ?? []), `${AFTER.last}${later.lastLine}`];
    added.push('the last state line');
  }
  return { values: out, added };
}
