/**
 * OpenAI-style message lists: a JSON array of `{role, content, tool_calls?, tool_call_id?}` (Chat
 * Completions), an object with such an array under `messages`, or the same objects one a line
 * (JSONL). Anthropic-style content blocks and Responses API items are read too. Nothing records
 * usage, so these are always counted.
 */
import { blockItems, contentText, inputText, normalizeRole, parseArguments } from '../content.js';
import { codexProfile, codexResponseItems } from './codex.js';
import { claudeProfile } from './claude.js';
import { extractSession, plainRequest, type ExtractProfile } from '../extract.js';
import type { TranscriptFormatModule } from './format.js';
import { parseJsonLines, type JsonLine } from '../jsonl.js';
import { isRecord } from '../../values.js';
import { formatDetector } from '../registry.js';
import type { Transcript, TranscriptItem, TranscriptNote } from '../types.js';

/** The message list of a parsed JSON document, or undefined when it is not one. */
function messageList(doc: unknown): unknown[] | undefined {
  if (Array.isArray(doc)) return doc as unknown[];
  if (isRecord(doc) && Array.isArray(doc.messages)) return doc.messages as unknown[];
  return undefined;
}

/** 1-based line where each element of the message array starts (the top-level array, or `messages`). */
// eslint-disable-next-line complexity -- a minimal JSON scanner (strings, escapes, nesting) that finds element start lines
function elementLines(text: string): number[] {
  const out: number[] = [];
  let depth = 0;
  let line = 1;
  let targetDepth = -1;
  let expect = false;
  let strStart = -1;
  let lastString = '';
  let key = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\n') line++;
    if (strStart >= 0) {
      if (ch === '\\') i++;
      else if (ch === '"') {
        if (depth === 1) lastString = text.slice(strStart + 1, i);
        strStart = -1;
      }
      continue;
    }
    if (ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n') continue;
    if (expect && ch !== ']') out.push(line);
    expect = false;
    if (ch === '"') strStart = i;
    else if (ch === ':' && depth === 1) key = lastString;
    else if (ch === '[' || ch === '{') {
      if (targetDepth < 0 && ch === '[' && (depth === 0 || (depth === 1 && key === 'messages'))) {
        targetDepth = depth + 1;
        expect = true;
      }
      depth++;
    } else if (ch === ']' || ch === '}') {
      depth--;
      if (targetDepth >= 0 && depth < targetDepth) break;
    } else if (ch === ',' && depth === targetDepth) expect = true;
  }
  return out;
}

function messageItems(m: Record<string, unknown>, line: number, toolNames: Map<string, string>): TranscriptItem[] {
  if (m.role === undefined && typeof m.type === 'string') return codexResponseItems(m, line, toolNames);
  const role = normalizeRole(m.role);
  if (role === 'tool') {
    const id = typeof m.tool_call_id === 'string' ? m.tool_call_id : undefined;
    const item: TranscriptItem = { role: 'tool', kind: 'tool_result', text: contentText(m.content), line, toolId: id };
    const name = (id ? toolNames.get(id) : undefined) ?? (typeof m.name === 'string' ? m.name : undefined);
    if (name) item.toolName = name;
    return [item];
  }
  const items = blockItems(m.content, role, line, toolNames);
  const calls = Array.isArray(m.tool_calls) ? m.tool_calls : isRecord(m.function_call) ? [{ function: m.function_call }] : [];
  for (const call of calls) {
    if (!isRecord(call)) continue;
    const fn = isRecord(call.function) ? call.function : call;
    const name = typeof fn.name === 'string' ? fn.name : 'tool';
    const id = typeof call.id === 'string' ? call.id : undefined;
    const input = parseArguments(fn.arguments ?? fn.input);
    if (id) toolNames.set(id, name);
    items.push({ role: 'assistant', kind: 'tool_call', text: inputText(input), line, toolName: name, toolInput: input, toolId: id });
  }
  return items;
}

function fromMessages(entries: JsonLine[], notes: TranscriptNote[]): Transcript {
  const items: TranscriptItem[] = [];
  const toolNames = new Map<string, string>();
  let model: string | undefined;
  for (const { line, value } of entries) {
    items.push(...messageItems(value, line, toolNames));
    if (typeof value.model === 'string') model = value.model;
  }
  return { format: 'openai', items, contextStart: 0, usage: null, model, notes };
}

/** Read an OpenAI-style messages JSON document (or JSONL of messages). */
export function readOpenAiTranscript(text: string, options: { firstLine?: number } = {}): Transcript {
  let doc: unknown;
  let parsed = false;
  try {
    doc = JSON.parse(text);
    parsed = true;
  } catch {
    // not one JSON document: messages one a line
  }
  const list = parsed ? messageList(doc) : undefined;
  if (!list) {
    const { lines, notes } = parseJsonLines(text, options.firstLine);
    return fromMessages(lines, notes);
  }
  const lines = elementLines(text);
  const first = options.firstLine ?? 1;
  const entries: JsonLine[] = [];
  const notes: TranscriptNote[] = [];
  const skipped: number[] = [];
  list.forEach((m, i) => {
    const line = (lines[i] ?? 1) + first - 1;
    if (isRecord(m)) entries.push({ line, value: m });
    else skipped.push(line);
  });
  if (skipped.length) notes.push({ line: skipped[0], message: `${skipped.length} message${skipped.length === 1 ? ' is' : 's are'} not an object and ${skipped.length === 1 ? 'was' : 'were'} skipped` });
  const t = fromMessages(entries, notes);
  if (isRecord(doc) && typeof doc.model === 'string') t.model = doc.model;
  return t;
}

/** OpenAI-style message lists and plain text have no task list of their own; a `todos`/`plan` tool is read like Claude's and Codex's. */
export const plainProfile: ExtractProfile = {
  request: plainRequest,
  tasks: (call) => claudeProfile.tasks(call) ?? codexProfile.tasks(call),
};

export const openAiFormat: TranscriptFormatModule = {
  ...formatDetector('openai'),
  read: readOpenAiTranscript,
  extract: (t, options = {}) => extractSession(t, plainProfile, options),
};
