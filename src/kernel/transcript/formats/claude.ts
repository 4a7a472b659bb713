/**
 * Claude Code session transcripts (~/.claude/projects/<project>/<session>.jsonl): one JSON object a
 * line; `type` user | assistant | system | summary | file-history-snapshot | …; the conversation in
 * `message` (Anthropic Messages API shape); subagent lines carry `isSidechain: true`.
 */
import { blockItems, contentText } from '../content.js';
import { parseJsonLines } from '../jsonl.js';
import { claudeUsedTokens, tokenField } from '../usage-fields.js';
import { SessionSpan } from '../span.js';
import { extractSession, plainRequest, type ExtractProfile } from '../extract.js';
import { claudeTaskEvent } from '../tasks.js';
import type { TranscriptFormatModule } from './format.js';
import type { ApiError, RecordedUsage, Transcript, TranscriptItem, TranscriptNote, UsageLineStep } from '../types.js';

export type ClaudeLine =
  | { kind: 'usage'; usage: RecordedUsage; id?: string }
  | { kind: 'boundary'; postTokens?: number }
  | { kind: 'bad-usage'; reason: string }
  | { kind: 'sidechain-usage'; usage?: RecordedUsage }
  | { kind: 'other' };

/** What one Claude Code line means for the usage figure (design §6). */
export function classifyClaudeLine(o: Record<string, unknown>, line?: number): ClaudeLine {
  // A subagent's own compaction says nothing about the main context.
  if (o.type === 'system' && o.subtype === 'compact_boundary' && o.isSidechain !== true) {
    const meta = o.compactMetadata as Record<string, unknown> | undefined;
    const post = tokenField(meta?.postTokens);
    return { kind: 'boundary', postTokens: post.ok ? post.value : undefined };
  }
  if (o.type !== 'assistant') return { kind: 'other' };
  const message = o.message as Record<string, unknown> | undefined;
  if (!message || typeof message !== 'object' || message.usage === undefined) return { kind: 'other' };
  if (o.isApiErrorMessage === true || message.model === '<synthetic>') return { kind: 'other' };
  const used = claudeUsedTokens(message.usage);
  if (!used.ok) return o.isSidechain === true ? { kind: 'sidechain-usage' } : { kind: 'bad-usage', reason: used.reason };
  const usage: RecordedUsage = { used: used.used, source: 'claude-usage' };
  if (typeof message.model === 'string') usage.model = message.model;
  if (line !== undefined) usage.line = line;
  if (o.isSidechain === true) return { kind: 'sidechain-usage', usage };
  return { kind: 'usage', usage, id: typeof message.id === 'string' ? message.id : undefined };
}

function boundaryUsage(postTokens: number, line?: number): RecordedUsage {
  const usage: RecordedUsage = { used: postTokens, source: 'claude-compact-boundary' };
  if (line !== undefined) usage.line = line;
  return usage;
}

/** Why a usage record was ignored. */
function badUsageMessage(reason: string): string {
  return `usage ignored: ${reason}`;
}

/** The note when only subagent usage is recorded. */
export function sidechainNote(count: number): string {
  return `only subagent (sidechain) usage is recorded (${count} record${count === 1 ? '' : 's'}); it does not measure the main context`;
}

/** The backward usage scan's step for Claude Code: the last main-context usage, else the last compaction. */
export const claudeUsageStep: UsageLineStep = {
  relevant: ['"usage"', 'compact_boundary', '"isSidechain":false'],
  line(o, state) {
    if (o.isSidechain === false) state.mainSeen = true;
    const c = classifyClaudeLine(o);
    if (c.kind === 'usage') {
      state.usage = c.usage;
      state.model = c.usage.model;
      return true;
    }
    if (c.kind === 'boundary') {
      if (c.postTokens !== undefined) state.usage = boundaryUsage(c.postTokens);
      return true;
    }
    if (c.kind === 'sidechain-usage') {
      state.sidechain++;
      if (c.usage && !state.sidechainUsage) state.sidechainUsage = c.usage;
    } else if (c.kind === 'bad-usage') state.bad.push(badUsageMessage(c.reason));
    return false;
  },
  atStart(state) {
    // A subagent's transcript on its own: every line is a sidechain line, so its own usage counts.
    if (!state.usage && state.sidechainUsage && !state.mainSeen) {
      state.usage = state.sidechainUsage;
      state.model = state.sidechainUsage.model;
    }
  },
};

/** Read a whole Claude Code JSONL transcript. */
// eslint-disable-next-line complexity -- one branch per Claude Code JSONL record type, a format reader
export function readClaudeTranscript(text: string, options: { firstLine?: number } = {}): Transcript {
  const { lines, notes } = parseJsonLines(text, options.firstLine);
  const items: TranscriptItem[] = [];
  const toolNames = new Map<string, string>();
  let contextStart = 0;
  let usage: RecordedUsage | null = null;
  let boundary: { line: number; postTokens?: number } | undefined;
  let model: string | undefined;
  let sidechainUsage = 0;
  let lastSidechainUsage: RecordedUsage | undefined;
  let mainSeen = false;
  let cwd: string | undefined;
  const apiErrors: ApiError[] = [];
  const badUsage: TranscriptNote[] = [];
  const span = new SessionSpan();
  for (const { line, value: o } of lines) {
    span.see(o.timestamp);
    if (o.isSidechain !== true) span.name(o.sessionId);
    if (cwd === undefined && typeof o.cwd === 'string' && o.cwd) cwd = o.cwd;
    if (o.isSidechain === false || (o.isSidechain === undefined && (o.type === 'user' || o.type === 'assistant'))) mainSeen = true;
    const c = classifyClaudeLine(o, line);
    if (c.kind === 'boundary') {
      boundary = { line, postTokens: c.postTokens };
      usage = null;
      contextStart = items.length;
      continue;
    }
    if (c.kind === 'usage') {
      usage = c.usage;
      if (c.usage.model) model = c.usage.model;
    } else if (c.kind === 'sidechain-usage') {
      sidechainUsage++;
      if (c.usage) lastSidechainUsage = c.usage;
    } else if (c.kind === 'bad-usage') badUsage.push({ line, message: `line ${line}: ${badUsageMessage(c.reason)}` });
    const message = o.message as Record<string, unknown> | undefined;
    if (o.type === 'assistant' && o.isApiErrorMessage === true && o.isSidechain !== true) {
      const text = message && typeof message === 'object' ? contentText(message.content) : '';
      apiErrors.push({ line, text: text || 'API error', index: items.length });
    }
    if ((o.type !== 'user' && o.type !== 'assistant') || o.isApiErrorMessage === true) continue;
    if (!message || typeof message !== 'object') continue;
    const role = o.type === 'user' ? 'user' : 'assistant';
    const lineItems = blockItems(message.content, role, line, toolNames);
    const responseId = role === 'assistant' && typeof message.id === 'string' ? message.id : undefined;
    for (const item of lineItems) {
      if (o.isSidechain === true) item.sidechain = true;
      if (responseId) item.responseId = responseId;
      if (o.isCompactSummary === true) item.compactSummary = true;
      if (o.isMeta === true) item.meta = true;
      items.push(item);
    }
  }
  if (!usage && boundary?.postTokens !== undefined) usage = boundaryUsage(boundary.postTokens, boundary.line);
  if (!usage && lastSidechainUsage && !mainSeen) {
    // a subagent's transcript on its own: its usage is its own context
    usage = lastSidechainUsage;
    model = usage.model ?? model;
  }
  notes.push(...badUsage.slice(0, 5));
  if (badUsage.length > 5) notes.push({ message: `${badUsage.length - 5} more usage records ignored` });
  if (!usage && sidechainUsage) notes.push({ message: sidechainNote(sidechainUsage) });
  const t: Transcript = { format: 'claude', items, contextStart, usage, model, notes };
  if (cwd) t.cwd = cwd;
  if (apiErrors.length) t.apiErrors = apiErrors;
  span.apply(t);
  return t;
}

// Session extraction: slash-command wrappers, and TodoWrite / TaskCreate / TaskUpdate task lists.

/** Built-in commands that ask for nothing by themselves. */
const NO_REQUEST = new Set(['clear', 'compact', 'model', 'login', 'logout', 'exit', 'quit', 'resume', 'config', 'cost', 'help', 'context', 'mcp', 'memory', 'permissions', 'statusline', 'ide', 'hooks', 'agents', 'doctor', 'vim', 'theme', 'status', 'usage', 'rewind', 'export']);

/** `<command-name>/review</command-name>…<command-args>123</command-args>` → `/review 123`. */
function claudeCommand(text: string): string | undefined {
  const name = /<command-name>\s*([^<]*?)\s*<\/command-name>/.exec(text)?.[1];
  if (!name) return undefined;
  const args = /<command-args>([\s\S]*?)<\/command-args>/.exec(text)?.[1]?.trim() ?? '';
  const bare = name.replace(/^\//, '');
  if (!args && NO_REQUEST.has(bare)) return '';
  return `/${bare}${args ? ` ${args.replace(/\s+/g, ' ')}` : ''}`.slice(0, 300);
}

export const claudeProfile: ExtractProfile = {
  request(text) {
    const command = claudeCommand(text);
    if (command !== undefined) return command || undefined;
    return plainRequest(text);
  },
  tasks: claudeTaskEvent,
};


const CLAUDE_TYPES = new Set(['user', 'assistant', 'system', 'summary', 'file-history-snapshot', 'queue-operation', 'progress', 'attachment']);

export const claudeFormat: TranscriptFormatModule = {
  name: 'claude',
  detect: (o) => typeof o.type === 'string' && CLAUDE_TYPES.has(o.type) && ['message', 'sessionId', 'uuid', 'leafUuid', 'snapshot', 'subtype'].some((key) => key in o),
  read: readClaudeTranscript,
  extract: (t, options = {}) => extractSession(t, claudeProfile, options),
};
