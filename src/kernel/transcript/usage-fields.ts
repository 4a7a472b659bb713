/** Token counts as agents record them: one field, and Claude Code's usage object. Small, for the status line. */

/** A value as a non-negative whole token count, or undefined with the reason. */
export function tokenField(value: unknown): { ok: true; value: number } | { ok: false; reason: string } {
  if (typeof value !== 'number') return { ok: false, reason: value === undefined ? 'missing' : `not a number (${JSON.stringify(value).slice(0, 30)})` };
  if (!Number.isFinite(value)) return { ok: false, reason: 'not finite' };
  if (value < 0) return { ok: false, reason: `negative (${value})` };
  return { ok: true, value: Math.round(value) };
}

const USAGE_FIELDS = ['input_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'] as const;

/** Tokens in context from a `message.usage`: input + cache creation + cache read (output excluded). */
export function claudeUsedTokens(usage: unknown): { ok: true; used: number } | { ok: false; reason: string } {
  if (typeof usage !== 'object' || usage === null || Array.isArray(usage)) return { ok: false, reason: 'usage is not an object' };
  const u = usage as Record<string, unknown>;
  let used = 0;
  let present = 0;
  for (const field of USAGE_FIELDS) {
    if (u[field] === undefined || u[field] === null) continue;
    const f = tokenField(u[field]);
    if (!f.ok) return { ok: false, reason: `${field} is ${f.reason}` };
    used += f.value;
    present++;
  }
  if (!present) return { ok: false, reason: 'it has no input_tokens or cache token fields' };
  return { ok: true, used };
}
