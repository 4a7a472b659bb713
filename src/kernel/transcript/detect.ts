import { isGeminiSession, recordFormat } from './registry.js';
import { parseJsonObject } from './jsonl.js';
import { isRecord } from '../values.js';
import type { TranscriptFormat } from './types.js';

/** The format of the first JSON lines that one format claims (up to 20 lines; none for a pretty-printed document). */
function jsonLinesFormat(body: string, start: number): TranscriptFormat | undefined {
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
      if (seen === 1) return undefined; // a pretty-printed document, not JSONL
      continue;
    }
    const f = recordFormat(o);
    if (f) return f;
  }
  return undefined;
}

/** The whole file as one JSON document: a Gemini session, an OpenAI `{messages}` object, or text. */
function documentFormat(body: string): TranscriptFormat {
  try {
    const doc: unknown = JSON.parse(body);
    if (isGeminiSession(doc)) return 'gemini';
    if (isRecord(doc) && Array.isArray(doc.messages)) return 'openai';
  } catch {
    // not one JSON document
  }
  return 'text';
}

/** Only the start of a JSON document: guessed from its first keys. */
function documentStartFormat(body: string, start: number): TranscriptFormat {
  if (/^\{\s*"sessionId"\s*:/.test(body.slice(start, start + 200)) && /"projectHash"\s*:/.test(body.slice(0, 4096))) return 'gemini';
  return /^\{\s*"messages"\s*:\s*\[/.test(body.slice(start, start + 200)) || /\n\s{0,4}"messages"\s*:\s*\[/.test(body.slice(0, 65536)) ? 'openai' : 'text';
}

/** A whole transcript's text without its leading BOM, and its format (as given, else detected): what a reader reads. */
export function transcriptBody(text: string, format?: TranscriptFormat): { body: string; format: TranscriptFormat } {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return { body, format: format ?? detectFormat(body, { complete: true }) };
}

/**
 * The transcript format, from the content: Claude Code and Codex JSONL by their line shapes,
 * OpenAI-style messages by a JSON array or `{messages: […]}`, anything else plain text. `text` may be
 * only the start of the file; `complete` says whether it is all of it.
 */
export function detectFormat(text: string, options: { complete?: boolean } = {}): TranscriptFormat {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const start = body.search(/\S/);
  if (start < 0) return 'text';
  const first = body[start];
  if (first === '[') return /^\[\s*[{\]]/.test(body.slice(start, start + 200)) ? 'openai' : 'text';
  if (first !== '{') return 'text';
  const fromLines = jsonLinesFormat(body, start);
  if (fromLines) return fromLines;
  return options.complete ? documentFormat(body) : documentStartFormat(body, start);
}
