/**
 * How big an MCP answer may grow: every answer stays under MAX_ANSWER_BYTES whatever the memory's
 * size (the SDK's client closes the connection past 10 MiB). Lists are cut at LIST_LIMIT entries
 * and say how many were left out; the server refuses, as a tool error, whatever still does not fit.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export const MAX_ANSWER_BYTES = 1024 * 1024;

/** The most entries of one list an answer carries. */
export const LIST_LIMIT = 100;

/** The most bytes the entries of one list may take (a long entry ends a list sooner). */
const LIST_BYTES = 128 * 1024;

/** The first entries of a list, within LIST_LIMIT entries and LIST_BYTES, and how many were left out. */
export function capList<T>(items: readonly T[], limit = LIST_LIMIT): { shown: T[]; left: number } {
  const shown: T[] = [];
  let bytes = 0;
  for (const item of items) {
    if (shown.length >= limit) break;
    bytes += Buffer.byteLength(JSON.stringify(item) ?? '');
    if (bytes > LIST_BYTES && shown.length > 0) break;
    shown.push(item);
  }
  return { shown, left: items.length - shown.length };
}

/** A text cut at `max` characters, saying how much was left out. */
export function capText(text: string, max = 2_000): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters left out)`;
}

/** The bytes of an answer as it goes over the wire (JSON). */
export function answerBytes(result: CallToolResult): number {
  return Buffer.byteLength(JSON.stringify(result));
}

const mb = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/** The refusal of an answer over MAX_ANSWER_BYTES, saying how to ask for less. */
export function tooLarge(tool: string, bytes: number): string {
  const narrow: Record<string, string> = {
    memory: 'view a file with view_range (a few hundred lines at a time), or a subfolder',
    search: 'ask for fewer hits (limit) or narrow by type, kind, tag or since',
    pack: 'ask for a smaller budget, or give a task or focus',
    lint: 'narrow by rule or path',
  };
  return `the ${tool} answer would be ${mb(bytes)}, over the ${mb(MAX_ANSWER_BYTES)} an answer may hold; nothing was sent. Narrow the request: ${narrow[tool] ?? 'ask for less'}.`;
}
