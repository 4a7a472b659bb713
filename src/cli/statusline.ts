/**
 * `memctx status --statusline`: Claude Code runs this after every assistant message with its
 * status-line JSON on stdin, so it stays light (no tokenizer, no YAML, no memory scan) and never
 * fails: anything unusable gives a short neutral line and exit code 0.
 */
import { Chalk } from 'chalk';
import { EXIT_OK } from '../store/errors.js';
import type { Context } from './context.js';
import { colorLevel } from './context.js';
import type { StatusOptions } from './status.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const positive = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined);

interface Figure {
  used: number;
  /** The percentage Claude Code computed, when it gave one and nothing overrides its window. */
  percent?: number;
  window: number;
}

async function fromTranscript(path: string, ctx: Context): Promise<{ used: number; recordedWindow?: number; model?: string } | undefined> {
  const { openTranscriptFile } = await import('../store/read-tail.js');
  const { detectFormat } = await import('../transcript/detect.js');
  const { scanUsage } = await import('../transcript/usage.js');
  const { resolve } = await import('node:path');
  const f = openTranscriptFile(resolve(ctx.io.cwd, path));
  try {
    const head = f.firstLines(16384);
    const r = scanUsage(detectFormat(head.text, { complete: head.complete }), f.linesBackward());
    return r?.usage ? { used: r.usage.used, recordedWindow: r.usage.window, model: r.usage.model ?? r.model } : undefined;
  } finally {
    f.close();
  }
}

export async function runStatusline(ctx: Context, opts: StatusOptions): Promise<number> {
    // Claude Code shows colours from a pipe: on unless turned off, at least 256 colours for the orange.
  const level = colorLevel(ctx.globals, ctx.io.env, true);
  const chalk = new Chalk({ level: level === 0 ? 0 : Math.max(level, 2) as 2 | 3 });
  const { neutralStatusline, renderStatusline } = await import('./ui/capacity.js');
  let label: string | undefined;
  try {
    const { capacity, DEFAULT_THRESHOLDS, thresholdsProblem } = await import('../capacity/levels.js');
    const { modelPreset, resolveWindow } = await import('../capacity/models.js');
    const { parseThresholds, parseWindow } = await import('./status.js');
    const { readStdin } = await import('./input.js');
    const input = ctx.io.stdin.isTTY ? '' : await readStdin(ctx.io.stdin, 1024 * 1024);
    let data: unknown;
    try {
      data = JSON.parse(input);
    } catch {
      data = undefined;
    }
    if (!isObject(data)) {
      ctx.ui.out(`${neutralStatusline()}\n`);
      return EXIT_OK;
    }
    const model = isObject(data.model) ? data.model : {};
    const modelId = typeof model.id === 'string' ? model.id : undefined;
    label = typeof model.display_name === 'string' ? model.display_name : modelId;
    const window = opts.window !== undefined ? parseWindow(opts.window) : undefined;
    const thresholds = parseThresholds(opts.thresholds, thresholdsProblem, DEFAULT_THRESHOLDS);
    const optionModel = opts.model !== undefined && modelPreset(opts.model) ? opts.model : undefined;

    let figure: Figure | undefined;
    const cw = isObject(data.context_window) ? data.context_window : undefined;
    if (cw) {
      const size = positive(cw.context_window_size);
      let used: number | undefined;
      let percent: number | undefined;
      if (isObject(cw.current_usage)) {
        const { claudeUsedTokens } = await import('../transcript/claude.js');
        const u = claudeUsedTokens(cw.current_usage);
        if (u.ok) used = u.used;
      }
      if (typeof cw.used_percentage === 'number' && Number.isFinite(cw.used_percentage) && cw.used_percentage >= 0) {
        percent = cw.used_percentage;
        if (used === undefined && size) used = Math.round((percent * size) / 100);
      }
      if (used !== undefined) {
        const w = resolveWindow({ window, model: optionModel, recordedWindow: size, transcriptModel: modelId, used });
        figure = { used, window: w.window, percent: w.source === 'recorded' && percent !== undefined ? percent : undefined };
      }
    }
    if (!figure && typeof data.transcript_path === 'string' && data.transcript_path) {
      const t = await fromTranscript(data.transcript_path, ctx);
      if (t) {
        const w = resolveWindow({ window, model: optionModel, recordedWindow: t.recordedWindow, transcriptModel: modelId ?? t.model, used: t.used });
        figure = { used: t.used, window: w.window };
      }
    }
    if (!figure) {
      ctx.ui.out(`${neutralStatusline(label)}\n`);
      return EXIT_OK;
    }
    const cap = capacity(figure.used, figure.window, thresholds);
    const percent = figure.percent ?? cap.percent;
    const level = figure.percent !== undefined ? capacity(Math.round((figure.percent * figure.window) / 100), figure.window, thresholds).level : cap.level;
    ctx.ui.out(`${renderStatusline({ level, percent, used: figure.used, window: figure.window, model: label }, chalk)}\n`);
  } catch (err) {
    if (ctx.io.env.MEMCTX_DEBUG) ctx.io.stderr.write(`${(err as Error).stack}\n`);
    ctx.ui.out(`${neutralStatusline(label)}\n`);
  }
  return EXIT_OK;
}
