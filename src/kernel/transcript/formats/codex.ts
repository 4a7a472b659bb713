/**
 * Codex CLI session rollouts (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl): one
 * `{timestamp, type, payload}` object a line; `type` session_meta | turn_context | response_item |
 * event_msg | compacted. The conversation is in `response_item`s; usage in `event_msg` token_count.
 */
import { contentText, inputText, normalizeRole, parseArguments } from '../content.js';
import { parseJsonLines } from '../jsonl.js';
import { badTokenCountMessage, classifyCodexLine } from '../usage.js';
import { formatDetector } from '../registry.js';
import { isRecord } from '../../values.js';
import { SessionSpan } from '../span.js';
import { extractSession, plainRequest, type ExtractProfile } from '../extract.js';
import { planItems } from '../tasks.js';
import type { TranscriptFormatModule } from './format.js';
import type { RecordedUsage, Transcript, TranscriptItem, TranscriptNote } from '../types.js';

/** A function call output: a string, or JSON `{output, metadata}` in some Codex versions. */
function outputText(output: unknown): string {
  if (typeof output === 'string') {
    const parsed = parseArguments(output);
    if (isRecord(parsed) && typeof parsed.output === 'string') return parsed.output;
    return output;
  }
  if (isRecord(output) && typeof output.output === 'string') return output.output;
  return contentText(output);
}

const EXIT_LINE = /^(?:Exit code:|Process exited with code)\s*(-?\d+)/m;

/** Whether a command's output says it failed: `metadata.exit_code`, or an "Exit code: N" / "Process exited with code N" line. */
function outputFailed(output: unknown, text: string): boolean {
  const parsed = typeof output === 'string' ? parseArguments(output) : output;
  if (isRecord(parsed) && isRecord(parsed.metadata) && typeof parsed.metadata.exit_code === 'number') return parsed.metadata.exit_code !== 0;
  const m = EXIT_LINE.exec(text.slice(0, 500));
  return m ? Number(m[1]) !== 0 : false;
}

// eslint-disable-next-line complexity -- one branch per Codex response item type, a format reader
export function codexResponseItems(p: Record<string, unknown>, line: number, toolNames: Map<string, string>): TranscriptItem[] {
  const callId = typeof p.call_id === 'string' ? p.call_id : typeof p.id === 'string' ? p.id : undefined;
  switch (p.type) {
    case 'message': {
      const text = contentText(p.content);
      return text ? [{ role: normalizeRole(p.role), kind: 'message', text, line }] : [];
    }
    case 'function_call':
    case 'custom_tool_call':
    case 'local_shell_call':
    case 'web_search_call': {
      const name = typeof p.name === 'string' ? p.name : p.type === 'local_shell_call' ? 'shell' : p.type === 'web_search_call' ? 'web_search' : 'tool';
      const input = p.type === 'function_call' ? parseArguments(p.arguments) : p.type === 'custom_tool_call' ? p.input : (p.action ?? p.arguments);
      if (callId) toolNames.set(callId, name);
      return [{ role: 'assistant', kind: 'tool_call', text: inputText(input), line, toolName: name, toolInput: input, toolId: callId }];
    }
    case 'function_call_output':
    case 'custom_tool_call_output':
    case 'local_shell_call_output': {
      const item: TranscriptItem = { role: 'tool', kind: 'tool_result', text: outputText(p.output), line, toolId: callId };
      const name = callId ? toolNames.get(callId) : undefined;
      if (name) item.toolName = name;
      if (outputFailed(p.output, item.text)) item.isError = true;
      return [item];
    }
    default:
      return [];
  }
}

/** Read a whole Codex rollout JSONL. */
// eslint-disable-next-line complexity -- one branch per Codex rollout record type, a format reader
export function readCodexTranscript(text: string, options: { firstLine?: number } = {}): Transcript {
  const { lines, notes } = parseJsonLines(text, options.firstLine);
  const items: TranscriptItem[] = [];
  const toolNames = new Map<string, string>();
  let usage: RecordedUsage | null = null;
  let model: string | undefined;
  let contextStart = 0;
  let cwd: string | undefined;
  const badUsage: TranscriptNote[] = [];
  const span = new SessionSpan();
  for (const { line, value: o } of lines) {
    span.see(o.timestamp);
    if (o.type === 'session_meta' && isRecord(o.payload)) span.name(o.payload.id ?? o.payload.session_id);
    if (cwd === undefined && (o.type === 'session_meta' || o.type === 'turn_context') && isRecord(o.payload) && typeof o.payload.cwd === 'string') cwd = o.payload.cwd;
    const c = classifyCodexLine(o, line);
    if (c.kind === 'usage') usage = c.usage;
    else if (c.kind === 'model') model = c.model;
    else if (c.kind === 'bad-usage') badUsage.push({ line, message: `line ${line}: ${badTokenCountMessage(c.reason)}` });
    const p = o.payload;
    if (!isRecord(p)) continue;
    if (o.type === 'response_item') items.push(...codexResponseItems(p, line, toolNames));
    else if (o.type === 'compacted') {
      contextStart = items.length;
      const summary = typeof p.message === 'string' ? p.message : '';
      if (summary) items.push({ role: 'user', kind: 'message', text: summary, line, compactSummary: true });
    }
  }
  if (usage && model) usage.model = model;
  notes.push(...badUsage.slice(0, 5));
  if (badUsage.length > 5) notes.push({ message: `${badUsage.length - 5} more token_count records ignored` });
  const t: Transcript = { format: 'codex', items, contextStart, usage, model, notes };
  if (cwd) t.cwd = cwd;
  span.apply(t);
  return t;
}

// Session extraction: AGENTS.md and environment preambles, and update_plan task lists.

export const codexProfile: ExtractProfile = {
  request: plainRequest,
  tasks(call) {
    if (call.toolName !== 'update_plan') return undefined;
    const input = parseArguments(call.toolInput);
    return isRecord(input) ? { list: planItems(input.plan, ['step', 'description']) } : undefined;
  },
};

export const codexFormat: TranscriptFormatModule = {
  ...formatDetector('codex'),
  read: readCodexTranscript,
  extract: (t, options = {}) => extractSession(t, codexProfile, options),
};
