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

/** The six fields, each "what + why", the target and the ceiling: what the agent is told. */
export function agentSummaryRules(target: number, max: number): string {
  return (
    `Give all six fields: goal, progress, decisions, changed_files, blockers, next_steps (write "none" for one with nothing in it). ` +
    `Aim for about ${target} tokens, at most ${max}: one short line per item. Each decision says what was decided and why.`
  );
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
}

/** What the transcript proves happened after the summary: files written inside `cwd` (not in `memoryDir`), the last state line. */
export function laterFacts(later: TranscriptItem[], cwd: string, memoryDir: string): LaterFacts {
  const files = changedFiles(later).flatMap((f) => {
    const abs = resolve(cwd, f.path);
    const rel = relativeInside(cwd, abs);
    return rel && !isInside(memoryDir, abs) ? [rel] : [];
  });
  const worked = later.some((item) => item.kind === 'tool_call' && !isSummaryCall(item));
  const last = [...later].reverse().find((item) => item.kind === 'message' && item.role === 'assistant' && !item.meta && item.text.trim() !== '');
  return { files, lastLine: worked && last ? condense(last.text) : undefined };
}

const NONE = /^(?:none|n\/a|nothing)\b/i;

/**
 * The agent's summary completed with later facts: new files added to Changed Files, the last state line
 * to Progress. What the agent wrote stays as written; `added` says what was added.
 */
export function completeAgentValues(values: FieldValues, later: LaterFacts): { values: FieldValues; added: string[] } {
  const out = emptyValues();
  for (const [key, items] of Object.entries(values)) out[key] = [...items];
  const added: string[] = [];
  const listed = out.changedFiles ?? [];
  const fresh = later.files.filter((path) => !listed.some((item) => item === path || item.startsWith(`${path} `)));
  if (fresh.length) {
    out.changedFiles = [...listed.filter((item) => !(listed.length === 1 && NONE.test(item))), ...fresh.map((path) => `${path} (changed after the summary)`)];
    added.push(`${fresh.length} file(s) changed after it`);
  }
  if (later.lastLine) {
    out.progress = [...(out.progress ?? []), `After the summary: ${later.lastLine}`];
    added.push('the last state line');
  }
  return { values: out, added };
}
