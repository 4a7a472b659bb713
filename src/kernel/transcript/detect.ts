import { isGeminiSession } from './gemini.js';
import { parseJsonObject } from './jsonl.js';
import { isRecord } from '../values.js';
import type { TranscriptFormat } from './types.js';

const CODEX_TYPES = new Set(['session_meta', 'turn_context', 'response_item', 'event_msg', 'compacted']);
const CLAUDE_TYPES = new Set(['user', 'assistant', 'system', 'summary', 'file-history-snapshot', 'queue-operation', 'progress', 'attachment']);

function lineFormat(o: Record<string, unknown>): TranscriptFormat | undefined {
  if (typeof o.sessionId === 'string' && typeof o.projectHash === 'string') return 'gemini';
  if (Array.isArray(o.messages) && isGeminiSession(o)) return 'gemini';
  if (typeof o.type === 'string' && CODEX_TYPES.has(o.type) && 'payload' in o) return 'codex';
  if (typeof o.type === 'string' && CLAUDE_TYPES.has(o.type) && ('message' in o || 'sessionId' in o || 'uuid' in o || 'leafUuid' in o || 'snapshot' in o || 'subtype' in o)) return 'claude';
  if (typeof o.role === 'string' || Array.isArray(o.messages)) return 'openai';
  return undefined;
}

/**
 * The transcript format, from the content: Claude Code and Codex JSONL by their line shapes,
 * OpenAI-style messages by a JSON array or `{messages: […]}`, anything else plain text. `text` may be
 * only the start of the file; `complete` says whether it is all of it.
 */
// eslint-disable-next-line complexity -- one test per transcript format, in order of precedence
export function detectFormat(text: string, options: { complete?: boolean } = {}): TranscriptFormat {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const start = body.search(/\S/);
  if (start < 0) return 'text';
  const first = body[start];
  if (first === '[') return /^\[\s*[{\]]/.test(body.slice(start, start + 200)) ? 'openai' : 'text';
  if (first !== '{') return 'text';
  let seen = 0;
  let pos = start;
  while (seen < 20 && pos < body.length) {
    let end = body.indexOf('\n', pos);
    if (end < 0) end = body.length;
    const line = body.slice(pos, end);
    pos = end + 1;
    if (!line.trim()) continue;
    seen++;
    const o = parseJsonObject(line);
    if (!o) {
      if (seen === 1) break; // a pretty-printed document, not JSONL
      continue;
    }
    const f = lineFormat(o);
    if (f) return f;
  }
  if (options.complete) {
    try {
      const doc: unknown = JSON.parse(body);
      if (isGeminiSession(doc)) return 'gemini';
      if (isRecord(doc) && Array.isArray(doc.messages)) return 'openai';
    } catch {
      // not one JSON document
    }
    return 'text';
  }
  if (/^\{\s*"sessionId"\s*:/.test(body.slice(start, start + 200)) && /"projectHash"\s*:/.test(body.slice(0, 4096))) return 'gemini';
  return /^\{\s*"messages"\s*:\s*\[/.test(body.slice(start, start + 200)) || /\n\s{0,4}"messages"\s*:\s*\[/.test(body.slice(0, 65536)) ? 'openai' : 'text';
}
