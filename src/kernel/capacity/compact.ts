/**
 * `memctx compact`: a compacted Markdown rendition of a transcript's current context.
 *
 * Before the last exchanges (kept verbatim), tool outputs are compacted:
 * - a repeat of an earlier output (the same tool, the same input — file, command — and the same text
 *   once timestamps, durations and ids are normalised) becomes a one-line reference that names the
 *   tool, its input and the first output's line, and only when that line is shorter;
 * - a bare success confirmation becomes one line;
 * - an output (or tool input) over 50 lines keeps its first lines, every line that looks like an
 *   error (a compiler or runtime message, not source text that mentions errors), a test run's
 *   summary and its failing tests, and a count of what was left out.
 * Marked lines (DECISION:, BLOCKER:, TODO:, BUG-n, ISSUE-n) are always kept verbatim, and
 * `missingMarkedLines` checks that each one survived.
 */
import { contextItems } from '../transcript/index.js';
import type { Transcript, TranscriptItem } from '../transcript/types.js';
import { condenseBlock, HEAD_LINES, isLongBlock, MAX_BLOCK_LINES } from './condense.js';
import { fenceFor } from '../markdown/escape.js';

const MARKED = /\b(?:DECISION|BLOCKER|TODO):|\b(?:BUG|ISSUE)-\d+\b/;
/**
 * A line that looks like an error message (not source text that mentions errors): an `error:` /
 * `Error:` / `SomethingError:` label, a compiler's `file:line:col: error`, FAIL / FAILED markers,
 * tracebacks and panics, errno codes, npm ERR!, a failed-test cross.
 */
export const ERROR_LINE = /^\s*(?:error|fatal|panic|exception|err!)\b|\b(?:[A-Z]\w*)?(?:Error|Exception)(?:\[\w+\])?:\s|\berror(?:\[\w+\])?(?:\s+TS\d+)?:|:\d+(?::\d+)?:?\s*(?:-\s*)?(?:error|fatal)\b|^\s*(?:--- )?FAIL(?:ED)?\b|\bFAILED\b|^Traceback \(most recent call last\)|\bpanicked at\b|\b(?:ENOENT|EACCES|EPERM|ECONNREFUSED|ETIMEDOUT|EADDRINUSE)\b|npm ERR!|^\s*[✗×✘]\s|\bcommand not found\b|\bPermission denied\b|\bSegmentation fault\b/;
/** Any mention of a problem: a confirmation that has one is not shortened. */
const MENTIONS_ERROR = /\b(?:errors?|fail(?:ed|ure|ures|s|ing)?|warnings?|cannot|can't|not found|denied)\b/i;
/** A test run's summary line (Vitest/Jest, Go, pytest, cargo, mocha). */
export const TEST_SUMMARY = /^\s*(?:Tests?:|Test Files|Test Suites:|Tests\s+\d|ok\s+\S+\s+[\d.]+s|PASS\s|FAIL\s|=+ .*\b(?:passed|failed)\b.*=+$|test result:|\d+ (?:passing|failing|passed|failed)\b)/;
/** Tools whose output is a file's text: nothing in it is an error line. */
const SOURCE_TOOLS = /^(?:read|read_file|view|cat|notebookread|read_many_files)$/i;

const VOLATILE: [RegExp, string][] = [
  [/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g, '<time>'],
  [/\b\d{4}-\d{2}-\d{2}\b/g, '<date>'],
  [/\b\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?\b/g, '<time>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<id>'],
  [/\b(?:toolu|msg|req|call|chatcmpl|run|sess|evt|resp)_[A-Za-z0-9]+\b/g, '<id>'],
  [/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,64}\b/gi, '<id>'],
  [/\b\d+(?:\.\d+)?\s?(?:ms|s|sec|secs|seconds|min|µs|us|ns)\b/g, '<duration>'],
];

/** An output with what changes between two runs of the same command (timestamps, durations, ids) replaced by placeholders. */
export function normalizeOutput(text: string): string {
  let t = text;
  for (const [pattern, replacement] of VOLATILE) t = t.replace(pattern, replacement);
  return t.split('\n').map((l) => l.trim()).filter((l) => l !== '').join('\n');
}
// `(?=\S)`: the leading blanks are taken once, never traded against the `.*` below (that was quadratic on long blank runs).
const SUCCESS = /^\s*(?=\S)(?:[✓✔]\s*)?(?:success\b|successfully\b|ok\b|done\b|saved\b|updated\b|applied\b|no changes\b|all \d+ tests? passed|.*\b(?:has been|have been|was|were) (?:updated|created|written|saved|applied|deleted)\b|.*\bsuccessfully\b|.*\b(?:tests? passed|build (?:completed|succeeded)|wrote \d+ (?:bytes|lines))\b)/i;

export interface CompactOptions {
  /** Exchanges at the end kept verbatim (default 10). */
  keepLast?: number;
  /** Outputs longer than this many lines are condensed (default 50). */
  maxLines?: number;
  /** Lines a condensed output keeps from its start (default 10). */
  headLines?: number;
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
function renderInput(input: unknown, fallback: string): string {
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
function itemBody(item: TranscriptItem): string {
  return item.kind === 'tool_call' ? renderInput(item.toolInput, item.text) : item.text;
}

function block(item: TranscriptItem, body: string): string {
  if (item.kind === 'message') return `${heading(item)}\n\n${body}\n`;
  const f = fenceFor(body);
  return `${heading(item)}\n\n${f}\n${body}\n${f}\n`;
}

export function markedLinesOf(text: string): string[] {
  return text.split('\n').filter((l) => MARKED.test(l));
}

const FAILING_TEST = /^\s*--- FAIL: |^FAILED |^\s*(?:×|✕|✗)\s|^test \S+ \.\.\. FAILED$/;
const KEEP_IN_TESTS = new RegExp(`${TEST_SUMMARY.source}|${FAILING_TEST.source}`);

/**
 * First lines, every error-looking or marked line after them (a test run's summary and failing tests
 * too), and a count of what was left out. `errorLine` undefined: the text is source, keep no error lines.
 */
export function condense(text: string, headLines: number, errorLine: RegExp | undefined = ERROR_LINE): string {
  const keep = errorLine ? new RegExp(`${errorLine.source}|${KEEP_IN_TESTS.source}`) : /(?!)/;
  const block = condenseBlock(text, { head: headLines, errorLine: keep, marked: MARKED });
  const { head, errors, marked } = block;
  const what = [`the first ${head.length}`, errors ? `${errors} error or test line${errors === 1 ? '' : 's'}` : '', marked ? `${marked} marked line${marked === 1 ? '' : 's'}` : ''].filter(Boolean).join(', ');
  return [...head, `[… ${block.omitted} of ${block.total} lines left out; kept ${what} …]`, ...block.kept].join('\n');
}

/** A bare success confirmation: short, starts like one, and nothing in it looks like an error. */
export function isConfirmation(text: string): boolean {
  const lines = text.split('\n').filter((l) => l.trim());
  // a confirmation is short: its first 1,000 characters decide
  if (!lines.length || !SUCCESS.test(lines[0].slice(0, 1000))) return false;
  if (lines.some((l) => ERROR_LINE.test(l) || MENTIONS_ERROR.test(l))) return false;
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

/** What a tool result came from: its tool and its input (a command, a file), as a key and a short label. */
function sourceOf(item: TranscriptItem, calls: Map<string, TranscriptItem>): { key: string; label: string } {
  const call = item.toolId ? calls.get(item.toolId) : undefined;
  const tool = item.toolName ?? call?.toolName ?? 'tool';
  const input = call ? renderInput(call.toolInput, call.text) : '';
  const first = input.split('\n')[0] ?? '';
  const label = first.length > 60 ? `${first.slice(0, 59)}…` : first;
  return { key: `${tool}\u0000${input}`, label: label ? `${tool} ${label}` : tool };
}

/** Render the transcript's current context as Markdown, compacted unless `verbatim`. */
export function compactTranscript(transcript: Transcript, options: CompactOptions = {}): CompactResult {
  const items = contextItems(transcript);
  const maxLines = options.maxLines ?? MAX_BLOCK_LINES;
  const headLines = options.headLines ?? HEAD_LINES;
  const from = options.verbatim ? 0 : verbatimStart(items, options.keepLast ?? 10);
  const bodies = items.map(itemBody);
  const marked: MarkedLine[] = [];
  bodies.forEach((body, i) => {
    for (const text of markedLinesOf(body)) marked.push({ line: items[i].line, text });
  });

  // repeats: the same tool, the same input and the same output once volatile parts are normalised
  const calls = new Map<string, TranscriptItem>();
  for (const item of items) if (item.kind === 'tool_call' && item.toolId) calls.set(item.toolId, item);
  const firstOf = new Map<string, { line: number; members: number }>();
  const repeatOf: ({ line: number; members: number; label: string } | undefined)[] = [];
  const occurrence: number[] = [];
  if (!options.verbatim) {
    items.forEach((item, i) => {
      if (item.kind !== 'tool_result' || bodies[i].trim() === '') return;
      const source = sourceOf(item, calls);
      const key = `${source.key}\u0000${normalizeOutput(bodies[i])}`;
      const first = firstOf.get(key);
      if (!first) firstOf.set(key, { line: item.line, members: 1 });
      else {
        occurrence[i] = ++first.members;
        repeatOf[i] = { ...first, label: source.label };
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
      const repeat = repeatOf[i];
      const errorLine = item.kind === 'tool_result' && SOURCE_TOOLS.test(item.toolName ?? '') ? undefined : ERROR_LINE;
      // the reference (plus any marked lines) replaces the output only when it is shorter
      const reference = repeat ? [`[same output as the ${repeat.label} result at line ${repeat.line} (occurrence ${occurrence[i]})]`, ...markedLinesOf(body)].join('\n') : undefined;
      if (reference && reference.length < body.length) {
        body = reference;
        duplicates++;
      } else if (item.kind === 'tool_result' && isConfirmation(body)) {
        const line = confirmationLine(body);
        const short = [line, ...markedLinesOf(body).filter((l) => !line.includes(l))].join('\n');
        if (short.length < body.length) {
          body = short;
          confirmations++;
        }
      } else if (item.kind !== 'message' && isLongBlock(body, maxLines)) {
        body = condense(body, headLines, errorLine);
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
