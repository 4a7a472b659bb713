/**
 * `memctx status`: how full an agent's context window is, from a transcript's recorded usage or its
 * counted text (the status line's figure is statusline.ts).
 */
import { resolve } from 'node:path';
import { EXIT_OK, EXIT_PROBLEMS, MemctxError } from '../errors.js';
import { atLeast, capacity, nextSteps } from './levels.js';
import type { StatusRequest } from './schema.js';
import type { RecordedUsage, Transcript, TranscriptFormat, TranscriptNote } from '../transcript/types.js';
import { assertText, openTranscriptFile, latestClaudeTranscript } from '../sources/transcript-file.js';
import { claudeProjectDir } from '../store/find.js';
import { detectFormat } from '../transcript/detect.js';
import { scanUsage } from '../transcript/usage.js';
import { shellWord } from '../text/shell.js';
import { loadModule } from '../load.js';
import { describeWindowSource, resolveWindow } from './models.js';

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
  const readTranscript = async () => (await loadModule('../transcript/index.js', import.meta.url, () => import('../transcript/index.js'))).readTranscript;
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
  const countTranscript = async (...args: Parameters<typeof import('./count.js').countTranscript>) => (await loadModule('./count.js', import.meta.url, () => import('./count.js'))).countTranscript(...args);
  const { window, failOn, thresholds, format: forced, encoding } = opts;
  const counter = async () => (await loadModule('../tokens/index.js', import.meta.url, () => import('../tokens/index.js'))).loadTokenCounter(encoding);

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
