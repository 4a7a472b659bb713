import type { Command } from 'commander';
import { EXIT_OK, EXIT_PROBLEMS, MemctxError } from '../store/errors.js';
import type { Level, Thresholds } from '../capacity/levels.js';
import type { RecordedUsage, Transcript, TranscriptFormat, TranscriptNote } from '../transcript/types.js';
import type { Context } from './context.js';
import { parseEncoding, parseTokenOption, parseTranscriptFormat } from './options.js';
import type { Runner } from './run.js';

export interface StatusOptions {
  window?: string;
  model?: string;
  failOn?: string;
  thresholds?: string;
  count?: boolean;
  format?: string;
  encoding?: string;
  statusline?: boolean;
}

export function register(program: Command, run: Runner): void {
  program
    .command('status')
    .description('how full the context window is: green / yellow / orange / red, with what to do')
    .argument('[file]', 'transcript (Claude Code or Codex JSONL, OpenAI messages JSON, plain text); - for stdin; default: the latest Claude Code session of this directory')
    .option('--window <tokens>', 'context window in tokens (e.g. 200000, 200k, 1m)')
    .option('--model <id>', 'take the window from a model preset (claude-sonnet-4-5, sonnet[1m], gpt-4o, gpt-4.1, gpt-5, gemini-2.5-pro, …)')
    .option('--fail-on <level>', 'exit 1 at or above this level: yellow, orange or red')
    .option('--thresholds <y,o,r>', 'percentages where yellow, orange and red start (default 80,90,95)')
    .option('--count', 'count the text even when the transcript records usage')
    .option('--format <format>', 'read the file as this format: claude, codex, openai or text (default: detected)')
    .option('--encoding <name>', 'tokenizer for counting: o200k_base (default) or cl100k_base')
    .option('--statusline', "read Claude Code's status-line JSON on stdin and print one short line")
    .action(run(runStatus));
}

/** "200000", "200k", "1m", "1.5M" → tokens; anything else (0, negative, words) is a usage error. */
export function parseWindow(value: string): number {
  return parseTokenOption(value, '--window');
}

export function parseThresholds(value: string | undefined, problem: (t: Thresholds) => string | undefined, defaults: Thresholds): Thresholds {
  if (value === undefined) return defaults;
  const parts = value.split(',').map((p) => p.trim());
  const nums = parts.map(Number);
  if (parts.length !== 3 || parts.some((p) => p === '') || nums.some((x) => !Number.isFinite(x))) {
    throw new MemctxError(`--thresholds takes three percentages (yellow,orange,red), got "${value}"`, { hint: 'e.g. --thresholds 80,90,95' });
  }
  const t = { yellow: nums[0], orange: nums[1], red: nums[2] };
  const why = problem(t);
  if (why) throw new MemctxError(`--thresholds: ${why}`, { hint: 'e.g. --thresholds 80,90,95' });
  return t;
}

interface Measured {
  format: TranscriptFormat;
  usage: RecordedUsage | null;
  transcript?: Transcript;
  text?: string;
  model?: string;
  notes: TranscriptNote[];
}

/** Read the transcript: from the end only when the format records usage, else (or with --count) whole. */
async function measure(ctx: Context, file: string | undefined, forced: TranscriptFormat | undefined, count: boolean): Promise<{ name: string; m: Measured }> {
  const { readTranscript, detectFormat, scanUsage } = await import('../transcript/index.js');
  const { assertText, openTranscriptFile, latestClaudeTranscript } = await import('../store/read-tail.js');
  if (file === '-') {
    const { readStdinBytes } = await import('./input.js');
    const bytes = await readStdinBytes(ctx.io.stdin);
    assertText(bytes, 'stdin');
    const text = bytes.toString('utf8');
    const t = readTranscript(text, { format: forced });
    return { name: 'stdin', m: { format: t.format, usage: count ? null : t.usage, transcript: t, text, model: t.model, notes: t.notes } };
  }
  let path: string;
  let name: string;
  if (file === undefined) {
    const { claudeMemoryDir } = await import('../store/find.js');
    const { dirname } = await import('node:path');
    const projectDir = dirname(claudeMemoryDir(ctx.io.cwd, ctx.io.home));
    const latest = latestClaudeTranscript(projectDir);
    if (!latest) {
      throw new MemctxError('no transcript given, and no Claude Code session found for this directory', { file: projectDir, hint: 'pass a transcript file, or - to read one from stdin' });
    }
    path = latest;
    name = latest;
  } else {
    const { resolve } = await import('node:path');
    path = resolve(ctx.io.cwd, file);
    name = file;
  }
  const f = openTranscriptFile(path, name);
  try {
    const head = f.firstLines();
    const format = forced ?? detectFormat(head.text, { complete: head.complete });
    const r = count ? undefined : scanUsage(format, f.linesBackward());
    if (r) {
      if (r.usage) return { name, m: { format, usage: r.usage, model: r.usage.model ?? r.model, notes: r.notes } };
    }
    const text = f.text();
    const t = readTranscript(text, { format });
    return { name, m: { format, usage: null, transcript: t, text, model: t.model, notes: t.notes } };
  } finally {
    f.close();
  }
}

async function runStatus(ctx: Context, file: string | undefined, opts: StatusOptions): Promise<number> {
  if (opts.statusline) {
    const { runStatusline } = await import('./statusline.js');
    return runStatusline(ctx, opts);
  }
  const capacityLib = await import('../capacity/index.js');
  const window = opts.window !== undefined ? parseWindow(opts.window) : undefined;
  if (opts.model !== undefined && !capacityLib.modelPreset(opts.model)) {
    throw new MemctxError(`unknown model "${opts.model}"`, { hint: 'use a known id (claude-sonnet-4-5, sonnet[1m], gpt-4o, gpt-4.1, gpt-5, gemini-2.5-pro, …) or give --window N' });
  }
  let failOn: Level | undefined;
  if (opts.failOn !== undefined) {
    if (!['yellow', 'orange', 'red'].includes(opts.failOn)) throw new MemctxError(`--fail-on must be yellow, orange or red, got "${opts.failOn}"`);
    failOn = opts.failOn as Level;
  }
  const thresholds = parseThresholds(opts.thresholds, capacityLib.thresholdsProblem, capacityLib.DEFAULT_THRESHOLDS);
  const forced = parseTranscriptFormat(opts.format);
  const encoding = parseEncoding(opts.encoding);

  const { name, m } = await measure(ctx, file, forced, Boolean(opts.count));
  let used: number;
  let counted: import('../capacity/count.js').CountResult | undefined;
  if (m.usage) used = m.usage.used;
  else {
    const { loadTokenCounter } = await import('../tokens/index.js');
    const counter = await loadTokenCounter(encoding);
    counted = capacityLib.countTranscript(m.transcript!, counter, { text: m.text });
    used = counted.total;
  }
  const resolved = capacityLib.resolveWindow({ window, model: opts.model, recordedWindow: m.usage?.window, transcriptModel: m.model, used });
  const cap = capacityLib.capacity(used, resolved.window, thresholds);
  const notes = m.notes.map((note) => note.message);
  if (m.text !== undefined && m.text.trim() === '') notes.push('the transcript is empty');
  const report: import('./ui/capacity.js').StatusReport = {
    file: name,
    format: m.format,
    level: cap.level,
    percent: cap.percent,
    used,
    window: resolved.window,
    windowSource: capacityLib.describeWindowSource(resolved),
    source: m.usage ? 'recorded' : 'counted',
    largest: counted?.largest ?? [],
    advice: cap.advice,
    thresholds,
    notes,
  };
  if (m.model) report.model = m.model;
  if (m.usage) report.recorded = m.usage.line ? { kind: m.usage.source, line: m.usage.line } : { kind: m.usage.source };
  else {
    report.encoding = encoding;
    report.items = counted!.items;
  }
  if (ctx.ui.json) {
    ctx.ui.printJson({ ...report, percent: Math.floor(cap.percent * 10) / 10 });
  } else {
    for (const note of notes) ctx.ui.warn(`${name}: ${note}`);
    const { renderStatus } = await import('./ui/capacity.js');
    if (!ctx.ui.quiet) ctx.ui.out(renderStatus(report, ctx.ui.chalk));
  }
  return failOn && capacityLib.atLeast(cap.level, failOn) ? EXIT_PROBLEMS : EXIT_OK;
}
