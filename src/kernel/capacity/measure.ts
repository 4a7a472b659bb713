/**
 * `memctx status`: how full an agent's context window is, from a transcript's recorded
 * usage or its counted text; and the status line's figure from Claude Code's status-line JSON.
 */
import { resolve } from 'node:path';
import { EXIT_OK, EXIT_PROBLEMS, MemctxError } from '../errors.js';
import { atLeast, capacity, DEFAULT_THRESHOLDS, nextSteps, parseThresholds, type Level } from './levels.js';
import type { StatusRequest } from './schema.js';
import { parseTokenOption } from '../tokens/size.js';
import type { RecordedUsage, Transcript, TranscriptFormat, TranscriptNote } from '../transcript/types.js';
import { isRecord } from '../values.js';
import { assertText, openTranscriptFile, latestClaudeTranscript } from '../sources/transcript-file.js';
import { claudeProjectDir, findMemoryDir } from '../store/find.js';
import { recordSessionWindow } from '../state/windows.js';
import { detectFormat } from '../transcript/detect.js';
import { scanUsage } from '../transcript/usage.js';
import { shellWord } from '../text/shell.js';
import { describeWindowSource, modelPreset, resolveWindow } from './models.js';
import { claudeUsedTokens } from '../transcript/formats/claude.js';

/** The status line's options, as typed (it never fails: a bad value gives the neutral line). */
export interface StatuslineOptions {
  window?: string;
  model?: string;
  thresholds?: string;
  /** Set by the callers that route here on `--statusline`; read by nothing. */
  statusline?: boolean;
}

/** With recorded usage, the largest items are counted in at most this much of the transcript's end. */
const TAIL_BYTES = 4 * 1024 * 1024;

export interface StatusDeps {
  cwd: string;
  home: string;
  env: Record<string, string | undefined>;
  readStdinBytes: () => Promise<Buffer>;
}

export interface StatusResult {
  report: import('./levels.js').StatusReport;
  exitCode: number;
}

interface Measured {
  format: TranscriptFormat;
  usage: RecordedUsage | null;
  transcript?: Transcript;
  text?: string;
  model?: string;
  notes: TranscriptNote[];
  /** With recorded usage: the transcript (or its last TAIL_BYTES) to find the largest items in, read only when needed. */
  tail?: () => Promise<Tail>;
}

interface Tail {
  transcript: Transcript;
  text: string;
  lastBytes?: number;
}

/** The transcript parsed whole when it is small, else only its last TAIL_BYTES of whole lines. */
function readTail(f: import('../sources/transcript-file.js').TranscriptFile, format: TranscriptFormat, readTranscript: typeof import('../transcript/index.js').readTranscript): Tail {
  if (f.size <= TAIL_BYTES) {
    const text = f.text();
    return { transcript: readTranscript(text, { format }), text };
  }
  const steps: string[][] = [];
  let bytes = 0;
  for (const step of f.linesBackward()) {
    steps.unshift(step.lines);
    bytes += step.lines.reduce((sum, line) => sum + line.length + 1, 0);
    if (bytes >= TAIL_BYTES || step.atStart) break;
  }
  const text = steps.flat().join('\n');
  return { transcript: readTranscript(text, { format }), text, lastBytes: bytes };
}

/** Read the transcript: from the end only when the format records usage, else (or with --count) whole. */
async function measure(deps: StatusDeps, file: string | undefined, forced: TranscriptFormat | undefined, count: boolean): Promise<{ name: string; m: Measured }> {
  // Recorded usage needs only the format check and the backward scan: the parsers load when text is parsed.
  const readTranscript = async () => (await import('../transcript/index.js')).readTranscript;
  if (file === '-') {
    const bytes = await deps.readStdinBytes();
    assertText(bytes, 'stdin');
    const text = bytes.toString('utf8');
    const t = (await readTranscript())(text, { format: forced });
    return { name: 'stdin', m: { format: t.format, usage: count ? null : t.usage, transcript: t, text, model: t.model, notes: t.notes, tail: async () => ({ transcript: t, text }) } };
  }
  let path: string;
  let name: string;
  if (file === undefined) {
    const projectDir = claudeProjectDir(deps.cwd, deps.home, deps.env);
    const latest = latestClaudeTranscript(projectDir);
    if (!latest) {
      throw new MemctxError('no transcript given, and no Claude Code session found for this directory', { file: projectDir, hint: 'pass a transcript file, or - to read one from stdin' });
    }
    path = latest;
    name = latest;
  } else {
    path = resolve(deps.cwd, file);
    name = file;
  }
  const f = openTranscriptFile(path, name);
  try {
    const head = f.firstLines();
    const format = forced ?? detectFormat(head.text, { complete: head.complete });
    const r = count ? undefined : scanUsage(format, f.linesBackward());
    if (r) {
      if (r.usage) {
        // Parsed only when the level asks for the largest items (green needs none): reopen the file then.
        const tail = async () => {
          const parse = await readTranscript();
          const again = openTranscriptFile(path, name);
          try {
            return readTail(again, format, parse);
          } finally {
            again.close();
          }
        };
        return { name, m: { format, usage: r.usage, model: r.usage.model ?? r.model, notes: r.notes, tail } };
      }
    }
    const text = f.text();
    const t = (await readTranscript())(text, { format });
    // formats without a backward scan (Gemini CLI) record their usage in the whole file
    if (!count && !r && t.usage) return { name, m: { format, usage: t.usage, model: t.usage.model ?? t.model, notes: t.notes, tail: async () => ({ transcript: t, text }) } };
    return { name, m: { format, usage: null, transcript: t, text, model: t.model, notes: t.notes } };
  } finally {
    f.close();
  }
}

/**
 * `memctx status FILE`: how full the context is, from the recorded usage or the counted text.
 * `opts` is checked already (schemas/status.ts resolveStatus); `memctx` is the command prefix for the next steps.
 */
export async function status(file: string | undefined, opts: StatusRequest & { memctx?: string }, deps: StatusDeps): Promise<StatusResult> {
  // Not capacity/index.js: its counting half (and the tokenizer) loads only when text is counted.
  const countTranscript = async (...args: Parameters<typeof import('./count.js').countTranscript>) => (await import('./count.js')).countTranscript(...args);
  const { window, failOn, thresholds, format: forced, encoding } = opts;
  const counter = async () => (await import('../tokens/index.js')).loadTokenCounter(encoding);

  const { name, m } = await measure(deps, file, forced, Boolean(opts.count));
  let used: number;
  let counted: import('./count.js').CountResult | undefined;
  let largest: import('./count.js').CountedItem[] = [];
  if (m.usage) used = m.usage.used;
  else {
    counted = await countTranscript(m.transcript!, await counter(), { text: m.text });
    used = counted.total;
    largest = counted.largest;
  }
  const resolved = resolveWindow({ window, model: opts.model, recordedWindow: m.usage?.window, transcriptModel: m.model, used });
  const cap = capacity(used, resolved.window, thresholds);
  // Recorded usage gives the total only: count the (end of the) transcript for what to compact first.
  const tail = m.usage && m.tail && cap.level !== 'green' ? await m.tail() : undefined;
  if (tail) largest = (await countTranscript(tail.transcript, await counter(), { text: tail.text })).largest;
  const notes = m.notes.map((note) => note.message);
  if (m.text !== undefined && m.text.trim() === '') notes.push('the transcript is empty');
  const report: import('./levels.js').StatusReport = {
    file: name,
    format: m.format,
    level: cap.level,
    percent: cap.percent,
    used,
    window: resolved.window,
    windowSource: describeWindowSource(resolved),
    source: m.usage ? 'recorded' : 'counted',
    largest,
    ...(tail?.lastBytes !== undefined && largest.length ? { largestScope: { lastBytes: tail.lastBytes } } : {}),
    advice: cap.advice,
    next: nextSteps(cap.level, { format: m.format, transcript: name === 'stdin' ? 'TRANSCRIPT' : shellWord(name), memctx: opts.memctx }),
    thresholds,
    notes,
  };
  if (m.model) report.model = m.model;
  if (m.usage) report.recorded = m.usage.line ? { kind: m.usage.source, line: m.usage.line } : { kind: m.usage.source };
  else {
    report.encoding = encoding;
    report.items = counted!.items;
  }
  return { report, exitCode: failOn && atLeast(cap.level, failOn) ? EXIT_PROBLEMS : EXIT_OK };
}

type Json = Record<string, unknown>;
const positive = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined);

interface Figure {
  used: number;
  /** The percentage Claude Code computed, when it gave one and nothing overrides its window. */
  percent?: number;
  window: number;
}

async function fromTranscript(path: string, cwd: string): Promise<{ used: number; recordedWindow?: number; model?: string } | undefined> {
  const f = openTranscriptFile(resolve(cwd, path));
  try {
    const head = f.firstLines(16384);
    const r = scanUsage(detectFormat(head.text, { complete: head.complete }), f.linesBackward());
    return r?.usage ? { used: r.usage.used, recordedWindow: r.usage.window, model: r.usage.model ?? r.model } : undefined;
  } finally {
    f.close();
  }
}

export interface StatuslineFigure {
  level: Level;
  percent: number;
  used: number;
  window: number;
  model?: string;
}

/**
 * The status line's figure from Claude Code's status-line JSON: the percentage and the tokens come
 * from one source (its `used_percentage` with its window size, else `current_usage`, else the
 * transcript's recorded usage), so they never disagree. Undefined (with the model's label) when the
 * input gives nothing to measure; errors are the caller's to swallow.
 */
export async function statusline(input: string, opts: StatuslineOptions, deps: { cwd: string; env?: Record<string, string | undefined>; home?: string; now?: () => Date }): Promise<{ figure?: StatuslineFigure; label?: string }> {
  let data: unknown;
  try {
    data = JSON.parse(input);
  } catch {
    data = undefined;
  }
  if (!isRecord(data)) return {};
  if (deps.env && deps.home) await recordWindow(data, { ...deps, env: deps.env, home: deps.home });
  const model = isRecord(data.model) ? data.model : {};
  const modelId = typeof model.id === 'string' ? model.id : undefined;
  const label = typeof model.display_name === 'string' ? model.display_name : modelId;
  try {
    const figure = await statuslineFigure(data, modelId, opts, deps.cwd);
    return figure ? { figure: { ...figure, model: label }, label } : { label };
  } catch {
    // a bad option or an unreadable transcript: the neutral line, with the model
    return { label };
  }
}

/**
 * Record the session's context window (Claude Code sends its size with every message) in the state
 * folder of the memory directory of the session's folder, for the Stop hook; written only when it
 * changed. Never fails the status line.
 */
async function recordWindow(data: Json, deps: { cwd: string; env: Record<string, string | undefined>; home: string; now?: () => Date }): Promise<void> {
  const cw = isRecord(data.context_window) ? data.context_window : undefined;
  const size = cw ? positive(cw.context_window_size) : undefined;
  const sessionId = typeof data.session_id === 'string' && data.session_id ? data.session_id : undefined;
  const workspace = isRecord(data.workspace) ? data.workspace : {};
  const folder = typeof data.cwd === 'string' ? data.cwd : typeof workspace.current_dir === 'string' ? workspace.current_dir : undefined;
  if (!size || !sessionId || !Number.isSafeInteger(size)) return;
  try {
    const root = findMemoryDir({ cwd: resolve(deps.cwd, folder ?? '.'), env: deps.env, home: deps.home, confined: true });
    await recordSessionWindow(root, sessionId, size, (deps.now?.() ?? new Date()).toISOString().replace(/\.\d+Z$/, 'Z'));
  } catch {
    // no memory directory, or no state folder: nothing to record
  }
}

/** What resolveWindow needs besides a figure's own: the flags and the transcript's model. */
interface WindowChoice {
  window?: number;
  model?: string;
  modelId?: string;
}

/** Claude Code's own figure: its percentage of its own window, else the tokens it reports as in use. */
function contextWindowFigure(cw: Json, choice: WindowChoice): Figure | undefined {
  const size = positive(cw.context_window_size);
  const percent = typeof cw.used_percentage === 'number' && Number.isFinite(cw.used_percentage) && cw.used_percentage >= 0 ? cw.used_percentage : undefined;
  let current: number | undefined;
  if (isRecord(cw.current_usage)) {
    const u = claudeUsedTokens(cw.current_usage);
    if (u.ok) current = u.used;
  }
  // one source: Claude Code's own percentage of its own window, else the tokens it reports
  const used = percent !== undefined && size ? Math.round((percent * size) / 100) : current;
  if (used === undefined) return undefined;
  const w = resolveWindow({ window: choice.window, model: choice.model, recordedWindow: size, transcriptModel: choice.modelId, used });
  const own = w.source === 'recorded' && percent !== undefined && size !== undefined;
  return { used, window: w.window, percent: own ? percent : undefined };
}

/** The figure counted from the transcript the status-line JSON names. */
async function transcriptFigure(path: unknown, choice: WindowChoice, cwd: string): Promise<Figure | undefined> {
  if (typeof path !== 'string' || !path) return undefined;
  const t = await fromTranscript(path, cwd);
  if (!t) return undefined;
  const w = resolveWindow({ window: choice.window, model: choice.model, recordedWindow: t.recordedWindow, transcriptModel: choice.modelId ?? t.model, used: t.used });
  return { used: t.used, window: w.window };
}

/** The status line's figure, from its sources in order: used_percentage, current_usage, the transcript. */
async function statuslineFigure(data: Json, modelId: string | undefined, opts: StatuslineOptions, cwd: string): Promise<StatuslineFigure | undefined> {
  const window = opts.window !== undefined ? parseTokenOption(opts.window, '--window') : undefined;
  const thresholds = opts.thresholds === undefined ? DEFAULT_THRESHOLDS : parseThresholds(opts.thresholds);
  const choice: WindowChoice = { window, model: opts.model !== undefined && modelPreset(opts.model) ? opts.model : undefined, modelId };
  const figure = (isRecord(data.context_window) ? contextWindowFigure(data.context_window, choice) : undefined) ?? (await transcriptFigure(data.transcript_path, choice, cwd));
  if (!figure) return undefined;
  const cap = capacity(figure.used, figure.window, thresholds);
  const percent = figure.percent ?? cap.percent;
  const level = figure.percent !== undefined ? capacity(Math.round((figure.percent * figure.window) / 100), figure.window, thresholds).level : cap.level;
  return { level, percent, used: figure.used, window: figure.window };
}
