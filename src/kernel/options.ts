import { MemctxError } from './errors.js';
import { MEMORY_KINDS, MEMORY_TYPES } from './store/schema.js';
import { closestMatch } from './text/suggest.js';

/**
 * An option value that must be one of `allowed` (case ignored): the allowed spelling, undefined when
 * not given, else a usage error listing the allowed values with a "did you mean".
 */
function parseChoice<T extends string>(option: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  const found = allowed.find((a) => a.toLowerCase() === value.trim().toLowerCase());
  if (found !== undefined) return found;
  const guess = closestMatch(value.trim(), allowed);
  throw new MemctxError(`${option} must be one of ${allowed.join(', ')}, got "${value}"`, {
    hint: guess !== undefined ? `did you mean ${option} ${guess}?` : `use one of: ${allowed.map((a) => `${option} ${a}`).join(', ')}`,
  });
}

/**
 * `--type` and `--kind` filters of ls and search: the built-in values, `other`, and any value a
 * scanned file uses; anything else is a usage error with a "did you mean", never an empty list.
 */
export function checkListFilters(filters: { type?: string; kind?: string }, files: readonly { type?: string; kind?: string }[]): void {
  const seen = (key: 'type' | 'kind') => files.map((f) => f[key]).filter((v): v is string => typeof v === 'string');
  const unique = (values: string[]) => [...new Set(values)];
  parseChoice('--type', filters.type, unique([...MEMORY_TYPES, 'other', ...seen('type')]));
  parseChoice('--kind', filters.kind, unique([...MEMORY_KINDS, ...seen('kind')]));
}

/** Parse a positive integer option, or throw a usage error naming the option. */
export function parsePositiveInt(value: string, option: string): number {
  const n = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(n) || n <= 0) {
    throw new MemctxError(`${option} must be a positive whole number, got "${value}"`);
  }
  return n;
}
