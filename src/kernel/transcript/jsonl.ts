import type { TranscriptNote } from './types.js';
import { isRecord } from '../values.js';

export interface JsonLine {
  /** 1-based line number in the source. */
  line: number;
  value: Record<string, unknown>;
}

export interface SourceLine {
  line?: number;
  text: string;
}

/** Lines of a text with their 1-based numbers (a trailing newline ends the last line, it does not start one). */
export function splitLines(text: string, firstLine = 1): SourceLine[] {
  const parts = text.split('\n');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  return parts.map((t, i) => ({ line: firstLine + i, text: t.endsWith('\r') ? t.slice(0, -1) : t }));
}

/** Parse one line as a JSON object, or undefined. */
export function parseJsonObject(text: string): Record<string, unknown> | undefined {
  const t = text.trim();
  if (!t.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(t);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Describe line numbers compactly: "4, 9 and 12", or "4, 9, 12 and 37 more". */
function listLines(lines: number[], max = 5): string {
  const shown = lines.slice(0, max).join(', ');
  const more = lines.length - max;
  return more > 0 ? `${shown} and ${more} more` : shown;
}

/**
 * Every line of a JSONL text that is a JSON object. Blank lines are skipped silently; a last line
 * that does not parse is a truncated write (noted and ignored); other lines that do not parse are
 * noted and skipped.
 */
export function parseJsonLines(text: string, firstLine = 1): { lines: JsonLine[]; notes: TranscriptNote[] } {
  const lines: JsonLine[] = [];
  const bad: number[] = [];
  const source = splitLines(text, firstLine);
  let last = source.length - 1;
  while (last >= 0 && source[last].text.trim() === '') last--;
  const notes: TranscriptNote[] = [];
  for (let i = 0; i <= last; i++) {
    const { line, text: t } = source[i];
    if (t.trim() === '') continue;
    const value = parseJsonObject(t);
    if (value) lines.push({ line: line!, value });
    else if (i === last && t.trim().startsWith('{')) notes.push({ line, message: `line ${line} is an incomplete JSON line (truncated write?); ignored` });
    else bad.push(line!);
  }
  if (bad.length) {
    notes.unshift({ line: bad[0], message: `${bad.length} line${bad.length === 1 ? ' is' : 's are'} not JSON and ${bad.length === 1 ? 'was' : 'were'} skipped (line${bad.length === 1 ? '' : 's'} ${listLines(bad)})` });
  }
  return { lines, notes };
}
