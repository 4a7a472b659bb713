/** A parsed JSON or YAML value that is an object (not null, not a list). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
