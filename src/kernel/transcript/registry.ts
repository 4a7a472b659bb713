/**
 * The transcript formats in the order a JSON line is tested against them (Gemini before Codex before
 * Claude Code before OpenAI; plain text is the fallback), each with the test that tells it. Detecting
 * goes through here; reading and extracting through each format's module (`formats/<name>.ts`, bound
 * in index.ts), so telling a format loads none of the readers (the status line tells one on every
 * message).
 */
import { isRecord } from '../values.js';
import type { TranscriptFormat } from './types.js';

export interface FormatDetector {
  name: TranscriptFormat;
  /** Whether one parsed JSON line (or JSON document) is in this format. */
  detect: (record: Record<string, unknown>) => boolean;
}

/** Whether a parsed JSON document is a Gemini CLI session. */
export function isGeminiSession(doc: unknown): boolean {
  if (!isRecord(doc) || !Array.isArray(doc.messages)) return false;
  if (typeof doc.projectHash === 'string') return true;
  return doc.messages.some((m) => isRecord(m) && m.type === 'gemini' && m.role === undefined);
}

const CODEX_TYPES = new Set(['session_meta', 'turn_context', 'response_item', 'event_msg', 'compacted']);
const CLAUDE_TYPES = new Set(['user', 'assistant', 'system', 'summary', 'file-history-snapshot', 'queue-operation', 'progress', 'attachment']);

export const FORMATS: readonly FormatDetector[] = [
  { name: 'gemini', detect: (o) => (typeof o.sessionId === 'string' && typeof o.projectHash === 'string') || (Array.isArray(o.messages) && isGeminiSession(o)) },
  { name: 'codex', detect: (o) => typeof o.type === 'string' && CODEX_TYPES.has(o.type) && 'payload' in o },
  { name: 'claude', detect: (o) => typeof o.type === 'string' && CLAUDE_TYPES.has(o.type) && ['message', 'sessionId', 'uuid', 'leafUuid', 'snapshot', 'subtype'].some((key) => key in o) },
  { name: 'openai', detect: (o) => typeof o.role === 'string' || Array.isArray(o.messages) },
  // plain text: the fallback, never told from a JSON record
  { name: 'text', detect: () => false },
];

/** A format's name and test, for its module (`formats/<name>.ts`). */
export function formatDetector(name: TranscriptFormat): FormatDetector {
  return FORMATS.find((f) => f.name === name)!;
}

/** The first format that claims one parsed JSON record, if any. */
export function recordFormat(record: Record<string, unknown>): TranscriptFormat | undefined {
  return FORMATS.find((f) => f.detect(record))?.name;
}
