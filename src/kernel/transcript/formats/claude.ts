/**
 * Claude Code session transcripts (~/.claude/projects/<project>/<session>.jsonl): one JSON object a
 * line; `type` user | assistant | system | summary | file-history-snapshot | …; the conversation in
 * `message` (Anthropic Messages API shape); subagent lines carry `isSidechain: true`.
 */
import { blockItems, contentText } from '../content.js';
import { parseJsonLines } from '../jsonl.js';
import { badUsageMessage, boundaryUsage, classifyClaudeLine, sidechainNote } from '../usage.js';
import { formatDetector } from '../registry.js';
import { SessionSpan } from '../span.js';
import { extractSession, plainRequest, type ExtractProfile } from '../extract.js';
import { claudeTaskEvent } from '../tasks.js';
import type { TranscriptFormatModule } from './format.js';
import type { ApiError, RecordedUsage, Transcript, TranscriptItem, TranscriptNote } from '../types.js';

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

export const claudeFormat: TranscriptFormatModule = {
  ...formatDetector('claude'),
  read: readClaudeTranscript,
  extract: (t, options = {}) => extractSession(t, claudeProfile, options),
};
