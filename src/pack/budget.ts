/** `--budget N` or `--budget P%` of a context window (`--window N` or `--model ID`). */

export class BudgetError extends Error {
  constructor(message: string, readonly hint: string) {
    super(message);
    this.name = 'BudgetError';
  }
}

/**
 * Context windows of common models, in tokens, from the providers' model pages (2025): Anthropic
 * "Models overview" (Claude 200k; 1M with the `[1m]` suffix / 1M beta), OpenAI model pages
 * (GPT-4o 128k, GPT-4.1 1,047,576, GPT-5 400k, o3/o4-mini 200k), Google "Gemini models" (2.5 1M).
 * A model id matches the longest prefix here.
 */
export const MODEL_WINDOWS: Record<string, number> = {
  claude: 200_000,
  'gpt-4o': 128_000,
  'gpt-4.1': 1_047_576,
  'gpt-5': 400_000,
  o3: 200_000,
  'o4-mini': 200_000,
  'gemini-2.5': 1_048_576,
};

export function modelWindow(model: string): number | undefined {
  const id = model.trim().toLowerCase();
  if (id.endsWith('[1m]')) return 1_000_000;
  let best: string | undefined;
  for (const prefix of Object.keys(MODEL_WINDOWS)) {
    if (id.startsWith(prefix) && (!best || prefix.length > best.length)) best = prefix;
  }
  return best ? MODEL_WINDOWS[best] : undefined;
}

function positiveInt(value: string, option: string): number {
  const n = Number(value.trim());
  if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(n) || n <= 0) {
    throw new BudgetError(`${option} must be a positive whole number of tokens, got "${value}"`, `for example ${option} 25000`);
  }
  return n;
}

/** The context window from --window or --model, or undefined when neither is given. */
export function resolveWindow(options: { window?: string; model?: string }): number | undefined {
  if (options.window !== undefined) return positiveInt(options.window, '--window');
  if (options.model !== undefined) {
    const window = modelWindow(options.model);
    if (window === undefined) {
      throw new BudgetError(`unknown --model "${options.model}"`, `known model prefixes: ${Object.keys(MODEL_WINDOWS).join(', ')} (or an id ending in [1m]); or give --window N`);
    }
    return window;
  }
  return undefined;
}

/** Tokens for `--budget`: a positive whole number, or a percentage (0-100] of the window. */
export function parseBudget(value: string, window: number | undefined): number {
  const text = value.trim();
  const percent = /^(\d+(?:\.\d+)?)\s*%$/.exec(text);
  if (percent) {
    const p = Number(percent[1]);
    if (!(p > 0 && p <= 100)) throw new BudgetError(`--budget ${value} must be a percentage above 0 and at most 100`, 'for example --budget 10% --window 200000');
    if (window === undefined) throw new BudgetError(`--budget ${value} is a percentage, but no context window was given`, 'add --window N or --model ID, or give the budget in tokens');
    const tokens = Math.floor((window * p) / 100);
    if (tokens <= 0) throw new BudgetError(`--budget ${value} of a ${window}-token window is less than one token`, 'give a larger percentage or budget');
    return tokens;
  }
  return positiveInt(value, '--budget');
}
