/**
 * `memctx compact`: a compacted Markdown rendition of a transcript's current context.
 *
 * Before the last exchanges (kept verbatim), tool outputs are compacted:
 * - a near-duplicate of an earlier tool output (similarity ≥ 0.85 after removing timestamps and ids)
 *   becomes a one-line reference to the first one, with its occurrence count;
 * - a bare success confirmation becomes one line;
 * - an output (or tool input) over 50 lines keeps its first lines, every line that looks like an
 *   error, and a count of what was left out.
 * Marked lines (DECISION:, BLOCKER:, TODO:, BUG-n, ISSUE-n) are always kept verbatim, and
 * `missingMarkedLines` checks that each one survived.
 */
import { contextItems } from '../transcript/index.js';
import type { Transcript, TranscriptItem } from '../transcript/types.js';
import { condenseBlock, HEAD_LINES, isLongBlock, MAX_BLOCK_LINES } from './condense.js';
import { fingerprint, isNearDuplicate, normalizeOutput, type Fingerprint } from './similarity.js';

export const MARKED = /\b(?:DECISION|BLOCKER|TODO):|\b(?:BUG|ISSUE)-\d+\b/;
export const ERROR_LINE = /\b(?:errors?|fail(?:ed|ure|ures|s|ing)?|fatal|exception|traceback|panic(?:ked)?|denied|cannot|can't|not found|undefined is not|segmentation fault|ENOENT|EACCES|EPERM|ECONNREFUSED|ETIMEDOUT|EADDRINUSE|ERR!)\b|[✗×✘]/i;
// `(?=\S)`: the leading blanks are taken once, never traded against the `.*` below (that was quadratic on long blank runs).
const SUCCESS = /^\s*(?=\S)(?:[✓✔]\s*)?(?:success\b|successfully\b|ok\b|done\b|saved\b|updated\b|applied\b|no changes\b|all \d+ tests? passed|.*\b(?:has been|have been|was|were) (?:updated|created|written|saved|applied|deleted)\b|.*\bsuccessfully\b|.*\b(?:tests? passed|build (?:completed|succeeded)|wrote \d+ (?:bytes|lines))\b)/i;

export interface CompactOptions {
  /** Exchanges at the end kept verbatim (default 10). */
  keepLast?: number;
  /** Outputs longer than this many lines are condensed (default 50). */
  maxLines?: number;
  /** Lines a condensed output keeps from its start (default 10). */
  headLines?: number;
  /** Near-duplicate threshold (default 0.85). */
  similarity?: number;
  /** Render everything verbatim (the "before" rendition the savings are measured against). */
  verbatim?: boolean;
  /** First lines of the document (title, source). */
  header?: string[];
}

export interface MarkedLine {
  /** Source line of the item the marked line is in. */
  line: number;
  text: string;
}

export interface CompactResult {
  markdown: string;
  /** Every marked line of the input. */
  marked: MarkedLine[];
  duplicates: number;
  condensed: number;
  confirmations: number;
  /** Source line where the verbatim tail starts (undefined when everything is in it, or nothing is). */
  verbatimFrom?: number;
  /** Items rendered. */
  items: number;
}

const ROLE: Record<TranscriptItem['role'], string> = { user: 'User', assistant: 'Assistant', system: 'System', tool: 'Tool', unknown: 'Text' };

function heading(item: TranscriptItem): string {
  const where = `(line ${item.line})`;
  if (item.kind === 'tool_call') return `### Tool call: ${item.toolName ?? 'tool'} ${where}`;
  if (item.kind === 'tool_result') return `### Tool result${item.toolName ? `: ${item.toolName}` : ''}${item.isError ? ' (error)' : ''} ${where}`;
  return `### ${ROLE[item.role]} ${where}`;
}

/** A tool call's input as readable lines: `key: value`, multi-line strings as they are. */
export function renderInput(input: unknown, fallback: string): string {
  if (typeof input === 'string') return input;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return input === undefined ? fallback : JSON.stringify(input);
  const out: string[] = [];
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    if (typeof value === 'string' && value.includes('\n')) out.push(`${key}:`, value);
    else out.push(`${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
  }
  return out.join('\n');
}

/** The full text an item renders (before compaction). */
export function itemBody(item: TranscriptItem): string {
  return item.kind === 'tool_call' ? renderInput(item.toolInput, item.text) : item.text;
}

/** A fence longer than any backtick run in the text, so the text cannot close it. */
function fence(text: string): string {
  let longest = 0;
  for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return '`'.repeat(Math.max(3, longest + 1));
}

function block(item: TranscriptItem, body: string): string {
  if (item.kind === 'message') return `${heading(item)}\n\n${body}\n`;
  const f = fence(body);
  return `${heading(item)}\n\n${f}\n${body}\n${f}\n`;
}

export function markedLinesOf(text: string): string[] {
  return text.split('\n').filter((l) => MARKED.test(l));
}

/** First lines, every error-looking or marked line after them, and a count of what was left out. */
export function condense(text: string, headLines: number): string {
  const block = condenseBlock(text, { head: headLines, errorLine: ERROR_LINE, marked: MARKED });
  const { head, errors, marked } = block;
  const what = [`the first ${head.length}`, errors ? `${errors} error line${errors === 1 ? '' : 's'}` : '', marked ? `${marked} marked line${marked === 1 ? '' : 's'}` : ''].filter(Boolean).join(', ');
  return [...head, `[… ${block.omitted} of ${block.total} lines left out; kept ${what} …]`, ...block.kept].join('\n');
}

/** A bare success confirmation: short, starts like one, and nothing in it looks like an error. */
export function isConfirmation(text: string): boolean {
  const lines = text.split('\n').filter((l) => l.trim());
  // a confirmation is short: its first 1,000 characters decide
  if (!lines.length || !SUCCESS.test(lines[0].slice(0, 1000))) return false;
  if (lines.some((l) => ERROR_LINE.test(l))) return false;
  return lines.length <= 3 || /here's the result of running/i.test(lines[0]);
}

function confirmationLine(text: string): string {
  const first = text.split('\n').find((l) => l.trim())!.trim();
  const sentence = /^(.*?\.)(?:\s|$)/.exec(first)?.[1] ?? first;
  const short = sentence.length > 160 ? `${sentence.slice(0, 159)}…` : sentence;
  return `✓ ${short.replace(/^[✓✔]\s*/, '')}`;
}

/**
 * Index of the first item of the last `n` exchanges. An exchange starts at a user message, or where
 * input (a tool result) follows the assistant.
 */
export function verbatimStart(items: TranscriptItem[], n: number): number {
  if (n <= 0) return items.length;
  const starts: number[] = [];
  for (let i = 0; i < items.length; i++) {
    const input = items[i].role === 'user' || items[i].role === 'tool';
    const prevInput = i > 0 && (items[i - 1].role === 'user' || items[i - 1].role === 'tool');
    const userMessage = items[i].role === 'user' && items[i].kind === 'message';
    if (i === 0 || items[i].role === 'unknown' || userMessage || (input && !prevInput)) starts.push(i);
  }
  return starts.length <= n ? 0 : starts[starts.length - n];
}

interface Group {
  line: number;
  print: Fingerprint;
  members: number;
}

/**
 * The first group an output is a near-duplicate of, without comparing it with every group: an exact
 * match of the normalised text first; for outputs of 3+ lines, the groups sharing a line with it
 * (each line indexes at most its first 1,000 groups: a line that common says little); for shorter
 * ones, the latest 500 short groups.
 */
function groupFinder(groups: Group[], threshold: number) {
  const exact = new Map<string, number>();
  const byLine = new Map<string, number[]>();
  const short: number[] = [];
  const text = (p: Fingerprint) => p.lines.join('\n');
  return {
    find(print: Fingerprint): number {
      const same = exact.get(text(print));
      if (same !== undefined) return same;
      let candidates: number[];
      if (print.lines.length >= 3) {
        const seen = new Set<number>();
        for (const line of print.lineSet.keys()) for (const g of byLine.get(line) ?? []) seen.add(g);
        candidates = [...seen].sort((a, b) => a - b);
      } else candidates = short.slice(-500);
      for (const g of candidates) if (isNearDuplicate(groups[g].print, print, threshold)) return g;
      return -1;
    },
    added(g: number): void {
      const print = groups[g].print;
      exact.set(text(print), g);
      if (print.lines.length < 3) {
        short.push(g);
        return;
      }
      for (const line of print.lineSet.keys()) {
        const list = byLine.get(line) ?? [];
        if (list.length < 1000) list.push(g);
        byLine.set(line, list);
      }
    },
  };
}

/** Render the transcript's current context as Markdown, compacted unless `verbatim`. */
export function compactTranscript(transcript: Transcript, options: CompactOptions = {}): CompactResult {
  const items = contextItems(transcript);
  const maxLines = options.maxLines ?? MAX_BLOCK_LINES;
  const headLines = options.headLines ?? HEAD_LINES;
  const threshold = options.similarity ?? 0.85;
  const from = options.verbatim ? 0 : verbatimStart(items, options.keepLast ?? 10);
  const bodies = items.map(itemBody);
  const marked: MarkedLine[] = [];
  bodies.forEach((body, i) => {
    for (const text of markedLinesOf(body)) marked.push({ line: items[i].line, text });
  });

  // near-duplicate groups over every tool output, so a reference can say "occurrence k of m"
  const groups: Group[] = [];
  const groupOf: (number | undefined)[] = [];
  const occurrence: number[] = [];
  if (!options.verbatim) {
    const finder = groupFinder(groups, threshold);
    items.forEach((item, i) => {
      if (item.kind !== 'tool_result' || bodies[i].trim() === '') return;
      const print = fingerprint(normalizeOutput(bodies[i]));
      const g = finder.find(print);
      if (g < 0) {
        groups.push({ line: item.line, print, members: 1 });
        finder.added(groups.length - 1);
        groupOf[i] = groups.length - 1;
        occurrence[i] = 1;
      } else {
        groupOf[i] = g;
        occurrence[i] = ++groups[g].members;
      }
    });
  }

  let duplicates = 0;
  let condensed = 0;
  let confirmations = 0;
  const parts: string[] = [];
  if (options.header?.length) parts.push(`${options.header.join('\n')}\n`);
  items.forEach((item, i) => {
    let body = bodies[i];
    if (i < from) {
      const g = groupOf[i];
      const reference = g !== undefined && occurrence[i] > 1 ? `[near-duplicate of the tool output at line ${groups[g].line} (occurrence ${occurrence[i]} of ${groups[g].members})]` : undefined;
      if (reference && reference.length < body.length) {
        body = [reference, ...markedLinesOf(body)].join('\n');
        duplicates++;
      } else if (item.kind === 'tool_result' && isConfirmation(body)) {
        const line = confirmationLine(body);
        if (line.length < body.length) {
          body = [line, ...markedLinesOf(body).filter((l) => !line.includes(l))].join('\n');
          confirmations++;
        }
      } else if (item.kind !== 'message' && isLongBlock(body, maxLines)) {
        body = condense(body, headLines);
        condensed++;
      }
    }
    parts.push(block(item, body));
  });
  const result: CompactResult = { markdown: parts.join('\n'), marked, duplicates, condensed, confirmations, items: items.length };
  if (from > 0 && from < items.length) result.verbatimFrom = items[from].line;
  return result;
}

/** Marked lines that do not appear in the rendition. */
export function missingMarkedLines(markdown: string, marked: MarkedLine[]): MarkedLine[] {
  return marked.filter((m) => !markdown.includes(m.text));
}
