/**
 * Context windows of common models, for `--model` and for model ids found in transcripts or in
 * Claude Code's status-line JSON. Sources, as published when this table was written:
 * - Anthropic, "Models overview" and "Context windows" (docs.anthropic.com/en/docs/about-claude/models,
 *   …/build-with-claude/context-windows): every Claude 3.x/4.x model has a 200,000-token window;
 *   Claude Sonnet 4 and 4.5 offer 1,000,000 tokens with the 1M-context beta.
 * - Claude Code, "Model configuration" (docs.anthropic.com/en/docs/claude-code/model-config): a model
 *   id or alias ending in `[1m]` (e.g. `sonnet[1m]`) selects the 1M window.
 * - OpenAI model pages (platform.openai.com/docs/models): GPT-4o and GPT-4o mini 128,000; GPT-4.1,
 *   4.1 mini and nano 1,047,576; o3 and o4-mini 200,000; GPT-4 Turbo 128,000.
 * - Codex CLI rollouts: every real rollout of a gpt-5* model records `model_context_window: 258400`
 *   (Codex keeps 95% of the model's 272,000 input tokens usable), so that is the gpt-5* default when a
 *   rollout records no window (the API page's 400,000 counts output tokens too).
 * - Claude Opus 4.6 and Sonnet 4/4.5/4.6 run with a 1M window in Claude Code without `[1m]` in the
 *   model id it records; a Claude session whose recorded usage is over 200,000 must be using it.
 * - Google, "Gemini models" (ai.google.dev/gemini-api/docs/models): Gemini 2.5 Pro, 2.5 Flash,
 *   2.5 Flash-Lite and 2.0 Flash 1,048,576 input tokens.
 */

export interface ModelPreset {
  /** Matched against the normalised model id (lower case, provider prefix and date-version suffix kept). */
  pattern: RegExp;
  label: string;
  window: number;
  /** A larger window the model can run with (Claude Sonnet 4/4.5's 1M beta). */
  extended?: number;
}

const DEFAULT_WINDOW = 200_000;
const ONE_M = 1_000_000;

export const MODEL_PRESETS: ModelPreset[] = [
  { pattern: /\[1m\]$/, label: '1M context ([1m])', window: ONE_M },
  { pattern: /^claude-sonnet-4(?:-[56])?(?:$|-)|^claude-4(?:\.5)?-sonnet/, label: 'Claude Sonnet 4/4.5', window: 200_000, extended: ONE_M },
  { pattern: /^claude-opus-4-6(?:$|-)/, label: 'Claude Opus 4.6', window: 200_000, extended: ONE_M },
  { pattern: /^claude-|^(?:sonnet|opus|haiku|opusplan|default)$/, label: 'Claude', window: 200_000, extended: ONE_M },
  { pattern: /^gpt-4o|^chatgpt-4o/, label: 'GPT-4o', window: 128_000 },
  { pattern: /^gpt-4\.1/, label: 'GPT-4.1', window: 1_047_576 },
  { pattern: /^gpt-4-turbo/, label: 'GPT-4 Turbo', window: 128_000 },
  { pattern: /^gpt-5/, label: 'GPT-5', window: 258_400 },
  { pattern: /^o3|^o4-mini/, label: 'OpenAI o3/o4-mini', window: 200_000 },
  { pattern: /^gemini-2\.5|^gemini-2\.0-flash/, label: 'Gemini 2.x', window: 1_048_576 },
];

/** Lower case, without a provider prefix (`anthropic/`, `openai/`, `models/`, Bedrock's `us.anthropic.`) or a Vertex `@version`. */
export function normalizeModelId(id: string): string {
  let m = id.trim().toLowerCase();
  m = m.replace(/^(?:[a-z0-9-]+\/)+/, '');
  m = m.replace(/^(?:[a-z]{2}\.)?anthropic\./, '');
  m = m.replace(/@[\w.-]+$/, '');
  m = m.replace(/-v\d+:\d+$/, '');
  return m;
}

/** The preset for a model id, or undefined when it is not in the table. */
export function modelPreset(id: string): ModelPreset | undefined {
  const m = normalizeModelId(id);
  if (!m) return undefined;
  return MODEL_PRESETS.find((p) => p.pattern.test(m));
}

type WindowSource = 'option' | 'model-option' | 'recorded' | 'model' | 'model-extended' | 'default';

export interface ResolvedWindow {
  window: number;
  source: WindowSource;
  /** The preset used, when one was. */
  preset?: string;
}

/**
 * The window to measure against, in order: `--window`, `--model`, the window the transcript
 * recorded, the transcript's model, the default 200,000. A Claude model whose recorded usage already
 * exceeds 200,000 must be running with its 1M window.
 */
export function resolveWindow(input: { window?: number; model?: string; recordedWindow?: number; transcriptModel?: string; used?: number }): ResolvedWindow {
  if (input.window !== undefined) return { window: input.window, source: 'option' };
  if (input.model !== undefined) {
    const p = modelPreset(input.model);
    if (p) return { window: p.window, source: 'model-option', preset: p.label };
  }
  if (input.recordedWindow !== undefined && input.recordedWindow > 0) return { window: input.recordedWindow, source: 'recorded' };
  if (input.transcriptModel !== undefined) {
    const p = modelPreset(input.transcriptModel);
    if (p) {
      if (p.extended && input.used !== undefined && input.used > p.window) return { window: p.extended, source: 'model-extended', preset: p.label };
      return { window: p.window, source: 'model', preset: p.label };
    }
  }
  return { window: DEFAULT_WINDOW, source: 'default' };
}

export function describeWindowSource(r: ResolvedWindow): string {
  switch (r.source) {
    case 'option':
      return '--window';
    case 'model-option':
      return `--model preset: ${r.preset}`;
    case 'recorded':
      return 'recorded by the agent';
    case 'model':
      return `model preset: ${r.preset}`;
    case 'model-extended':
      return `${r.preset} with its 1M window, since usage exceeds 200,000`;
    default:
      return 'default; set --window or --model';
  }
}
