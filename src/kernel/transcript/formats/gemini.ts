/**
 * Gemini CLI sessions (~/.gemini/tmp/<project hash>/chats/session-*.json): one JSON object
 * `{sessionId, projectHash, startTime, lastUpdated, messages: […]}`, or the same as JSONL (the header
 * first, then one message a line, `{"$set": {…}}` lines updating the header, and a message appended
 * again under the same `id` when its tool calls finish: the last copy wins). A message is
 * `{id, type: user | gemini | info | error | warning, content, toolCalls?, tokens?, model?}`; `tokens`
 * (`input`, `output`, `cached`, `thoughts`, `tool`, `total`) is the model's own count, and `input`,
 * the prompt's size, is what the context holds (Gemini CLI's own context figure is the last prompt's
 * token count).
 */
import { contentText, inputText } from '../content.js';
import { parseJsonLines } from '../jsonl.js';
import { tokenField } from '../usage-fields.js';
import { isRecord } from '../../values.js';
import { formatDetector } from '../registry.js';
import type { JsonLine } from '../jsonl.js';
import { extractSession, plainRequest, type ExtractProfile } from '../extract.js';
import { planItems } from '../tasks.js';
import type { TranscriptFormatModule } from './format.js';
import type { RecordedUsage, Transcript, TranscriptItem, TranscriptNote } from '../types.js';

/** Text of Gemini `content` (a string, a part, or a list of parts), function responses included. */
function partsText(content: unknown): string {
  const parts = Array.isArray(content) ? content : [content];
  const out: string[] = [];
  for (const part of parts) {
    if (typeof part === 'string') out.push(part);
    else if (isRecord(part)) {
      if (typeof part.text === 'string') out.push(part.text);
      else if (isRecord(part.functionResponse)) {
        const response = part.functionResponse.response;
        out.push(isRecord(response) && typeof response.output === 'string' ? response.output : isRecord(response) && typeof response.error === 'string' ? response.error : inputText(response));
      } else out.push(contentText(part));
    }
  }
  return out.filter(Boolean).join('\n');
}

function messageItems(m: Record<string, unknown>, line: number): TranscriptItem[] {
  const items: TranscriptItem[] = [];
  const text = partsText(m.content);
  if (m.type === 'user') {
    if (text) items.push({ role: 'user', kind: 'message', text, line });
    return items;
  }
  if (m.type !== 'gemini') return items;
  if (text) items.push({ role: 'assistant', kind: 'message', text, line });
  for (const call of Array.isArray(m.toolCalls) ? m.toolCalls : []) {
    if (!isRecord(call)) continue;
    const name = typeof call.name === 'string' ? call.name : 'tool';
    const id = typeof call.id === 'string' ? call.id : undefined;
    items.push({ role: 'assistant', kind: 'tool_call', text: inputText(call.args), line, toolName: name, toolInput: call.args, toolId: id });
    if (call.result !== undefined && call.result !== null) {
      const result: TranscriptItem = { role: 'tool', kind: 'tool_result', text: partsText(call.result), line, toolName: name, toolId: id };
      if (call.status === 'error' || call.status === 'cancelled') result.isError = true;
      items.push(result);
    }
  }
  return items;
}

/** The usage a message's `tokens` records: the prompt's tokens (`input`), else `total`. */
function messageUsage(m: Record<string, unknown>, line: number): RecordedUsage | undefined {
  if (!isRecord(m.tokens)) return undefined;
  const input = tokenField(m.tokens.input);
  const total = tokenField(m.tokens.total);
  const used = input.ok && input.value > 0 ? input.value : total.ok ? total.value : undefined;
  if (used === undefined) return undefined;
  const usage: RecordedUsage = { used, source: 'gemini-tokens', line };
  if (typeof m.model === 'string') usage.model = m.model;
  return usage;
}

function fromMessages(messages: JsonLine[], notes: TranscriptNote[]): Transcript {
  const items: TranscriptItem[] = [];
  let usage: RecordedUsage | null = null;
  let model: string | undefined;
  for (const { line, value: m } of messages) {
    items.push(...messageItems(m, line));
    if (m.type !== 'gemini') continue;
    if (typeof m.model === 'string') model = m.model;
    usage = messageUsage(m, line) ?? usage;
  }
  if (usage && !usage.model && model) usage.model = model;
  return { format: 'gemini', items, contextStart: 0, usage, model, notes };
}

/** Read a Gemini CLI session (JSON or JSONL). */
export function readGeminiTranscript(text: string, options: { firstLine?: number } = {}): Transcript {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    doc = undefined;
  }
  if (isRecord(doc) && Array.isArray(doc.messages)) {
    const entries: JsonLine[] = [];
    doc.messages.forEach((m, i) => {
      if (isRecord(m)) entries.push({ line: i + 1, value: m });
    });
    // a whole-document session has no per-message lines: `line` is the message's position
    return fromMessages(entries, []);
  }
  const { lines, notes } = parseJsonLines(text, options.firstLine);
  const byId = new Map<string, number>();
  const messages: JsonLine[] = [];
  for (const entry of lines) {
    const m = entry.value;
    if (m.$set !== undefined || typeof m.type !== 'string') continue;
    const id = typeof m.id === 'string' ? m.id : undefined;
    const at = id !== undefined ? byId.get(id) : undefined;
    if (at !== undefined) messages[at] = { line: entry.line, value: m };
    else {
      if (id !== undefined) byId.set(id, messages.length);
      messages.push(entry);
    }
  }
  return fromMessages(messages, notes);
}

// Session extraction: write_todos task lists.

const geminiProfile: ExtractProfile = {
  request: plainRequest,
  tasks(call) {
    if (call.toolName !== 'write_todos' || !isRecord(call.toolInput)) return undefined;
    return { list: planItems(call.toolInput.todos, ['description', 'content']) };
  },
};


export const geminiFormat: TranscriptFormatModule = {
  ...formatDetector('gemini'),
  read: readGeminiTranscript,
  extract: (t, options = {}) => extractSession(t, geminiProfile, options),
};
