/** The JSON a Claude Code SessionEnd or PreCompact hook receives on stdin. */

import { MemctxError } from '../errors.js';

export interface HookInput {
  sessionId?: string;
  transcriptPath?: string;
  cwd?: string;
  /** `SessionEnd`, `PreCompact`, … */
  event?: string;
  /** SessionEnd's `reason` or PreCompact's `trigger`. */
  reason?: string;
  /** Stop: Claude Code is already continuing because a Stop hook asked it to. */
  stopHookActive?: boolean;
  /** Stop: the text of the message that just ended. */
  lastMessage?: string;
  /** PostToolUse: the id of the tool call that just ran (its assistant message holds the usage). */
  toolUseId?: string;
}

/** How long a hook (`flush --hook`, `checkpoint`) waits for its stdin to close (the agent writes the hook JSON and closes it). */
export const HOOK_STDIN_WAIT_MS = 2_000;

export class HookInputError extends MemctxError {
  constructor(message: string) {
    super(message);
    this.name = 'HookInputError';
  }
}

function optionalString(o: Record<string, unknown>, key: string): string | undefined {
  const value = o[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new HookInputError(`hook input: \`${key}\` must be a string, got ${Array.isArray(value) ? 'a list' : typeof value}`);
  return value.trim() === '' ? undefined : value;
}

/** Parse the hook's stdin; a HookInputError says what is wrong with it. */
export function parseHookInput(text: string): HookInput {
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  if (trimmed === '') throw new HookInputError('hook input is empty: expected the hook JSON on stdin');
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch (err) {
    const shown = trimmed.length > 60 ? `${trimmed.slice(0, 57)}...` : trimmed;
    throw new HookInputError(`hook input is not JSON (${(err as Error).message.replace(/, ".*" is not valid JSON$/s, '')}): ${JSON.stringify(shown)}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new HookInputError('hook input must be a JSON object');
  const o = value as Record<string, unknown>;
  return {
    sessionId: optionalString(o, 'session_id'),
    transcriptPath: optionalString(o, 'transcript_path'),
    cwd: optionalString(o, 'cwd'),
    event: optionalString(o, 'hook_event_name'),
    reason: optionalString(o, 'reason') ?? optionalString(o, 'trigger'),
    stopHookActive: o.stop_hook_active === true ? true : undefined,
    lastMessage: optionalString(o, 'last_assistant_message'),
    toolUseId: optionalString(o, 'tool_use_id'),
  };
}
