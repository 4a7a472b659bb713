/** The content taxonomy (matches Claude Code's memory types) and lifecycle kinds. */
export const MEMORY_TYPES = ['user', 'feedback', 'project', 'reference'] as const;
export const MEMORY_KINDS = ['decision', 'issue', 'state', 'learning', 'session', 'note'] as const;
export const MAX_NAME_LENGTH = 100;

/** An ISO date-time to the second, UTC: what memctx writes into `updated`. */
export function isoTimestamp(now: Date): string {
  return now.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
