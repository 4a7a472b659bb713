/** Counting a transcript's text when it records no usage: the total and the largest items. */
import { contextItems } from '../transcript/index.js';
import type { Transcript, TranscriptItem } from '../transcript/types.js';

export interface Counter {
  count(text: string): number;
}

export interface CountedItem {
  line: number;
  role: TranscriptItem['role'];
  kind: TranscriptItem['kind'];
  toolName?: string;
  tokens: number;
  /** The item's first line, shortened. */
  preview: string;
}

export interface CountResult {
  /** Tokens in the current context. */
  total: number;
  /** Items counted (after the last compaction, subagent items left out). */
  items: number;
  /** The largest items, biggest first (ties: earlier first). */
  largest: CountedItem[];
}

export function preview(text: string, max = 60): string {
  const first = text.split('\n').find((l) => l.trim()) ?? '';
  const t = first.trim().replace(/\s+/g, ' ');
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

/**
 * Count the current context's tokens: for plain text the whole text; for structured transcripts the
 * text of each message, tool call (name and input) and tool result — not the JSON around them.
 */
export function countTranscript(transcript: Transcript, counter: Counter, options: { text?: string; top?: number } = {}): CountResult {
  const items = contextItems(transcript);
  const whole = transcript.format === 'text' && options.text !== undefined ? counter.count(options.text) : undefined;
  const counted = items.map((item) => {
    // a plain text with no turns or paragraphs is one item: the whole text, already counted
    const text = item.text === options.text && whole !== undefined ? whole : counter.count(item.text);
    const tokens = text + (item.kind === 'tool_call' && item.toolName ? counter.count(item.toolName) : 0);
    const c: CountedItem = { line: item.line, role: item.role, kind: item.kind, tokens, preview: preview(item.text) };
    if (item.toolName) c.toolName = item.toolName;
    return c;
  });
  const total = whole ?? counted.reduce((sum, c) => sum + c.tokens, 0);
  const largest = counted
    .map((c, i) => ({ c, i }))
    .sort((a, b) => b.c.tokens - a.c.tokens || a.i - b.i)
    .slice(0, options.top ?? 5)
    .map((x) => x.c);
  return { total, items: counted.length, largest };
}

/** "tool result (Bash)", "assistant message", … */
export function describeItem(c: { kind: CountedItem['kind']; role: CountedItem['role']; toolName?: string }): string {
  if (c.kind === 'tool_result') return c.toolName ? `tool result (${c.toolName})` : 'tool result';
  if (c.kind === 'tool_call') return c.toolName ? `tool call (${c.toolName})` : 'tool call';
  return c.role === 'unknown' ? 'text' : `${c.role} message`;
}
