/** `status`'s options, defaults and report shape: one definition for the CLI flags, the MCP tool and the library. */
import * as v from 'valibot';
import { MemctxError } from '../errors.js';
import { DEFAULT_THRESHOLDS, LEVELS, parseThresholds, type Level, type Thresholds } from './levels.js';
import { MODEL_PRESETS, modelPreset } from './models.js';
import { DEFAULT_ENCODING, ENCODINGS, type EncodingName } from '../tokens/encodings.js';
import { parseTokenOption } from '../tokens/size.js';
import { TRANSCRIPT_FORMATS, type TranscriptFormat } from '../transcript/types.js';
import { ARG_LABEL, choice, flag, parseInput, path, text, tokenSize, type Label } from '../schema.js';
import { parseBudget } from '../bundle/budget.js';
import { SESSION_START_BUDGET } from '../bundle/startup.js';

const FAIL_LEVELS = ['yellow', 'orange', 'red'] as const;

export const StatusOptions = v.strictObject({
  transcript: v.optional(path('a transcript file (Claude Code or Codex JSONL, OpenAI JSON, text) of this project; default: the latest Claude Code session of the working directory')),
  window: v.optional(tokenSize('the context window in tokens: 200000, "200k" or "1m"')),
  model: v.optional(text('take the context window from this model id')),
  fail_on: v.optional(choice(FAIL_LEVELS, 'exit 1 at or above this level')),
  thresholds: v.optional(text(`percentages where yellow, orange and red start (default "${DEFAULT_THRESHOLDS.yellow},${DEFAULT_THRESHOLDS.orange},${DEFAULT_THRESHOLDS.red}")`)),
  count: v.optional(flag('count the text even when the transcript records usage')),
  format: v.optional(choice(TRANSCRIPT_FORMATS, "the transcript's format (default: detected)")),
  encoding: v.optional(choice(ENCODINGS, `tokenizer for counting (default ${DEFAULT_ENCODING})`)),
  startup: v.optional(flag("instead of a transcript: what the SessionStart bundle injects, by source, against its budget and Claude Code's hook-output limit")),
  budget: v.optional(tokenSize(`with startup: the bundle's budget (default ${SESSION_START_BUDGET}, what init --agent claude writes): 2000, "2k", or "1%" of window/model`)),
});
export type StatusOptions = v.InferInput<typeof StatusOptions>;

/** What the MCP `status` tool takes: a transcript of this project and a model. */
export const StatusInput = v.strictObject({
  transcript: StatusOptions.entries.transcript,
  model: StatusOptions.entries.model,
  startup: StatusOptions.entries.startup,
  budget: StatusOptions.entries.budget,
});

export interface StatusRequest {
  transcript?: string;
  window?: number;
  model?: string;
  failOn?: Level;
  thresholds: Thresholds;
  count: boolean;
  format?: TranscriptFormat;
  encoding: EncodingName;
  /** Measure the SessionStart bundle instead of a transcript. */
  startup: boolean;
  /** With startup: the budget in tokens (default the SessionStart hook's). */
  budget?: number;
}

/** Options that measure a transcript, refused with startup. */
const TRANSCRIPT_ONLY = ['transcript', 'fail_on', 'thresholds', 'count', 'format'] as const;

/** With startup, no transcript option; without it, no budget. */
function checkStartup(given: StatusOptions, label: Label): void {
  if (!given.startup) {
    if (given.budget !== undefined) throw new MemctxError(`${label('budget')} applies only with ${label('startup')}`, { hint: `add ${label('startup')} to measure the SessionStart bundle at that budget` });
    return;
  }
  const clash = TRANSCRIPT_ONLY.find((key) => given[key] !== undefined);
  if (clash !== undefined) {
    throw new MemctxError(`${label(clash)} does not apply with ${label('startup')}`, { hint: `${label('startup')} measures the SessionStart bundle, not a transcript: leave out ${label(clash)}, or leave out ${label('startup')}` });
  }
}

/** Check a status input and settle its defaults: the window in tokens, the thresholds, the encoding; with startup, the budget. */
export function resolveStatus(input: unknown, label: Label = ARG_LABEL, schema: v.GenericSchema = StatusOptions): StatusRequest {
  const given = parseInput(schema, input, label) as StatusOptions;
  if (given.model !== undefined && !modelPreset(given.model)) {
    throw new MemctxError(`unknown ${label('model')} "${given.model}"`, { hint: `known models: ${MODEL_PRESETS.map((p) => p.label).join(', ')}; or give ${label('window')} N` });
  }
  checkStartup(given, label);
  const window = given.window === undefined ? undefined : parseTokenOption(String(given.window), label('window'));
  const startup = given.startup ?? false;
  return {
    transcript: given.transcript,
    window,
    model: given.model,
    failOn: given.fail_on,
    thresholds: given.thresholds === undefined ? DEFAULT_THRESHOLDS : parseThresholds(given.thresholds, label('thresholds')),
    count: given.count ?? false,
    format: given.format,
    encoding: given.encoding ?? DEFAULT_ENCODING,
    startup,
    budget: startup ? parseBudget(String(given.budget ?? SESSION_START_BUDGET), window ?? (given.model === undefined ? undefined : modelPreset(given.model)?.window), label('budget')) : undefined,
  };
}

const Tokens = v.pipe(v.number(), v.integer(), v.minValue(0));

/** What `status --startup` reports: the SessionStart bundle's tokens by source, its budget and characters. */
const StartupOutput = v.object({
  command: v.string(),
  profile: v.string(),
  budget: Tokens,
  tokens: Tokens,
  bySource: v.object({ index: Tokens, pinned: Tokens, sessions: Tokens, drifted: Tokens, others: Tokens }),
  chars: Tokens,
  hookOutputLimitChars: Tokens,
  overHookLimit: v.boolean(),
  pinnedLeftOut: v.array(v.string()),
  advice: v.string(),
  warnings: v.array(v.string()),
});

/** A transcript's capacity report; with startup, the StartupOutput fields instead. */
export const StatusOutput = v.looseObject({
  ...v.partial(StartupOutput).entries,
  file: v.optional(v.string()),
  format: v.optional(v.string()),
  level: v.optional(v.picklist(LEVELS)),
  percent: v.optional(v.number()),
  used: v.optional(v.number()),
  window: v.optional(v.number()),
  advice: v.string(),
  notes: v.optional(v.array(v.string())),
});
