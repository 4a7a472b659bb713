/** The content taxonomy (matches Claude Code's memory types) and lifecycle kinds. */
export const MEMORY_TYPES = ['user', 'feedback', 'project', 'reference'] as const;
export const MEMORY_KINDS = ['decision', 'issue', 'state', 'learning', 'session', 'note'] as const;
export const MAX_NAME_LENGTH = 100;
/** `status` values: open | resolved for kind issue, superseded for an outdated state. */
export const MEMORY_STATUSES = ['open', 'resolved', 'superseded'] as const;
/** `severity` values for kind issue. */
export const MEMORY_SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;
/** Words people write for a closed issue besides `resolved`: pack and gc read them as resolved; lint asks for `resolved`. */
export const RESOLVED_SYNONYMS = ['closed', 'done', 'fixed', 'wontfix'] as const;

export function isResolvedStatus(status: string | undefined): boolean {
  return status === 'resolved' || (RESOLVED_SYNONYMS as readonly (string | undefined)[]).includes(status);
}

/** An ISO date-time to the second, UTC: what memctx writes into `updated`. */
export function isoTimestamp(now: Date): string {
  return now.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
