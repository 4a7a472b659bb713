/**
 * The status line's figure from Claude Code's status-line JSON (`memctx status --statusline`). It runs
 * after every assistant message, so it loads little: the transcript readers only when Claude Code sends
 * no figure of its own.
 */
import { resolve } from 'node:path';
import { capacity, DEFAULT_THRESHOLDS, parseThresholds, type Level } from './levels.js';
import { isRecord } from '../values.js';
import { modelPreset, resolveWindow } from './models.js';
import { claudeUsedTokens } from '../transcript/usage-fields.js';
import { loadModule } from '../load.js';

/** The status line's options, as typed (it never fails: a bad value gives the neutral line). */
export interface StatuslineOptions {
  window?: string;
  model?: string;
  thresholds?: string;
  /** Set by the callers that route here on `--statusline`; read by nothing. */
  statusline?: boolean;
}

type Json = Record<string, unknown>;
const positive = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined);

interface Figure {
  used: number;
  /** The percentage Claude Code computed, when it gave one and nothing overrides its window. */
  percent?: number;
  window: number;
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
    // the memory directory's finder and the state folder load only here (the status line without a window needs neither)
    const { recordFolderWindow } = await loadModule('../state/windows.js', import.meta.url, () => import('../state/windows.js'));
    await recordFolderWindow(resolve(deps.cwd, folder ?? '.'), sessionId, size, (deps.now?.() ?? new Date()).toISOString().replace(/\.\d+Z$/, 'Z'), deps);
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
  const { fromTranscript } = await loadModule('./recorded-usage.js', import.meta.url, () => import('./recorded-usage.js'));
  const t = fromTranscript(path, cwd);
  if (!t) return undefined;
  const w = resolveWindow({ window: choice.window, model: choice.model, recordedWindow: t.recordedWindow, transcriptModel: choice.modelId ?? t.model, used: t.used });
  return { used: t.used, window: w.window };
}

/** The status line's figure, from its sources in order: used_percentage, current_usage, the transcript. */
async function statuslineFigure(data: Json, modelId: string | undefined, opts: StatuslineOptions, cwd: string): Promise<StatuslineFigure | undefined> {
  // --window is rare in a status line: its parser loads only for it
  const window = opts.window !== undefined ? (await loadModule('../tokens/size.js', import.meta.url, () => import('../tokens/size.js'))).parseTokenOption(opts.window, '--window') : undefined;
  const thresholds = opts.thresholds === undefined ? DEFAULT_THRESHOLDS : parseThresholds(opts.thresholds);
  const choice: WindowChoice = { window, model: opts.model !== undefined && modelPreset(opts.model) ? opts.model : undefined, modelId };
  const figure = (isRecord(data.context_window) ? contextWindowFigure(data.context_window, choice) : undefined) ?? (await transcriptFigure(data.transcript_path, choice, cwd));
  if (!figure) return undefined;
  const cap = capacity(figure.used, figure.window, thresholds);
  const percent = figure.percent ?? cap.percent;
  const level = figure.percent !== undefined ? capacity(Math.round((figure.percent * figure.window) / 100), figure.window, thresholds).level : cap.level;
  return { level, percent, used: figure.used, window: figure.window };
}
