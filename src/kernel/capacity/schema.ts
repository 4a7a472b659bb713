/** `status`'s options, defaults and report shape: one definition for the CLI flags, the MCP tool and the library. */
import * as v from 'valibot';
import { MemctxError } from '../errors.js';
import { DEFAULT_THRESHOLDS, LEVELS, parseThresholds, type Level, type Thresholds } from './levels.js';
import { MODEL_PRESETS, modelPreset } from './models.js';
import { DEFAULT_ENCODING, ENCODINGS, type EncodingName } from '../tokens/encodings.js';
import { parseTokenOption } from '../tokens/size.js';
import { TRANSCRIPT_FORMATS, type TranscriptFormat } from '../transcript/types.js';
import { ARG_LABEL, choice, flag, parseInput, path, text, tokenSize, type Label } from '../schema.js';

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
});
export type StatusOptions = v.InferInput<typeof StatusOptions>;

/** What the MCP `status` tool takes: a transcript of this project and a model. */
export const StatusInput = v.strictObject({
  transcript: StatusOptions.entries.transcript,
  model: StatusOptions.entries.model,
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
}

/** Check a status input and settle its defaults: the window in tokens, the thresholds, the encoding. */
export function resolveStatus(input: unknown, label: Label = ARG_LABEL, schema: v.GenericSchema = StatusOptions): StatusRequest {
  const given = parseInput(schema, input, label) as StatusOptions;
  if (given.model !== undefined && !modelPreset(given.model)) {
    throw new MemctxError(`unknown ${label('model')} "${given.model}"`, { hint: `known models: ${MODEL_PRESETS.map((p) => p.label).join(', ')}; or give ${label('window')} N` });
  }
  return {
    transcript: given.transcript,
    window: given.window === undefined ? undefined : parseTokenOption(String(given.window), label('window')),
    model: given.model,
    failOn: given.fail_on,
    thresholds: given.thresholds === undefined ? DEFAULT_THRESHOLDS : parseThresholds(given.thresholds, label('thresholds')),
    count: given.count ?? false,
    format: given.format,
    encoding: given.encoding ?? DEFAULT_ENCODING,
  };
}

export const StatusOutput = v.looseObject({
  file: v.string(),
  format: v.string(),
  level: v.picklist(LEVELS),
  percent: v.number(),
  used: v.number(),
  window: v.number(),
  advice: v.string(),
  notes: v.array(v.string()),
});
