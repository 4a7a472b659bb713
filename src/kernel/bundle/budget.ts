/** `--budget N` or `--budget P%` of a context window (`--window N` or `--model ID`). */
import { MemctxError } from '../errors.js';
import { MODEL_PRESETS, modelPreset } from '../capacity/models.js';
import { parseTokenSize, tokenSizeHint } from '../tokens/size.js';

export class BudgetError extends MemctxError {
  declare readonly hint: string;
  constructor(message: string, hint: string) {
    super(message, { hint });
    this.name = 'BudgetError';
  }
}

/** The context window of a model id, from the preset table that `status` uses too. */
export function modelWindow(model: string): number | undefined {
  return modelPreset(model)?.window;
}

function positiveInt(value: string, option: string): number {
  const n = parseTokenSize(value);
  if (n === undefined) throw new BudgetError(`${option} must be a positive number of tokens, got "${value}"`, tokenSizeHint(option));
  return n;
}

/** The context window from --window or --model, or undefined when neither is given. */
export function resolveWindow(options: { window?: string; model?: string }, label: (key: string) => string = (key) => `--${key}`): number | undefined {
  if (options.window !== undefined) return positiveInt(options.window, label('window'));
  if (options.model !== undefined) {
    const window = modelWindow(options.model);
    if (window === undefined) {
      throw new BudgetError(`unknown ${label('model')} "${options.model}"`, `known models: ${MODEL_PRESETS.map((p) => p.label).join(', ')}; or give ${label('window')} N`);
    }
    return window;
  }
  return undefined;
}

/** Tokens for `--budget`: a token size (25000, 25k), or a percentage (0-100] of the window. */
export function parseBudget(value: string, window: number | undefined, option = '--budget'): number {
  const text = value.trim();
  const percent = /^(\d+(?:\.\d+)?)\s*%$/.exec(text);
  if (percent) {
    const p = Number(percent[1]);
    if (!(p > 0 && p <= 100)) throw new BudgetError(`${option} ${value} must be a percentage above 0 and at most 100`, `for example ${option} 10% with a window of 200000`);
    if (window === undefined) throw new BudgetError(`${option} ${value} is a percentage, but no context window was given`, `add ${option === '--budget' ? '--window N or --model ID' : 'window or model'}, or give the budget in tokens`);
    const tokens = Math.floor((window * p) / 100);
    if (tokens <= 0) throw new BudgetError(`${option} ${value} of a ${window}-token window is less than one token`, 'give a larger percentage or budget');
    return tokens;
  }
  return positiveInt(value, option);
}

/** The bundle's budget when neither --budget nor a profile gives one. */
export const DEFAULT_BUDGET = 25_000;
