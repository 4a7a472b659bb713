/** `checkpoint`'s options: the one checker for its flags (a bad value is logged by the hook, which never fails). */
import * as v from 'valibot';
import { MemctxError } from '../../kernel/errors.js';
import { StatusOptions } from '../../kernel/capacity/schema.js';
import { parseAskAt } from '../../kernel/sources/config-schema.js';
import { flag, parseInput, text, whole, type Label } from '../../kernel/schema.js';

export const DEFAULT_WAIT_MS = 3000;
const MAX_WAIT_MS = 30_000;

export const CheckpointOptions = v.strictObject({
  at: v.optional(text('ask at these context percentages, e.g. "80" or "80,95" (default: flush.askAt in the configuration, else 80)')),
  cli: v.optional(flag('ask for `memctx flush --agent-summary` instead of the flush MCP tool')),
  window: StatusOptions.entries.window,
  model: StatusOptions.entries.model,
  wait: v.optional(whole(`wait at most this many milliseconds for the message that just ended to reach the transcript (default ${DEFAULT_WAIT_MS})`, 0, MAX_WAIT_MS)),
});
export type CheckpointOptions = v.InferInput<typeof CheckpointOptions>;

export interface CheckpointRequest {
  /** The percentages to ask at, ascending; undefined: the configuration's flush.askAt, else 80. */
  at?: number[];
  cli: boolean;
  window?: string;
  model?: string;
  waitMs: number;
}

/** Check checkpoint's input and settle its defaults. */
export function resolveCheckpoint(input: unknown, label: Label): CheckpointRequest {
  const given = parseInput(CheckpointOptions, input, label);
  return {
    at: given.at === undefined ? undefined : parseAt(given.at, label('at')),
    cli: given.cli ?? false,
    window: given.window === undefined ? undefined : String(given.window),
    model: given.model,
    waitMs: given.wait ?? DEFAULT_WAIT_MS,
  };
}

/** `--at 80,95` as the configuration's flush.askAt is checked (one rule for both): ascending, without repeats. */
function parseAt(value: string, name: string): number[] {
  const settled = parseAskAt(value.split(',').map((p) => Number(p.trim())));
  if ('problem' in settled) throw new MemctxError(`${name} takes percentages above 0 and at most 100, got "${value}"`, { hint: `e.g. ${name} 80 or ${name} 80,95` });
  return settled.thresholds;
}
