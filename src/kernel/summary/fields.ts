/** Field values for a flush: every field is a list of strings, whatever the input gave. */

export type FieldValues = Record<string, string[]>;

/**
 * A FieldValues with no prototype: field names are user text (`--field toString=x`, `{{constructor}}`),
 * so a lookup must never find Object.prototype's members.
 */
export function emptyValues(): FieldValues {
  return Object.create(null) as FieldValues;
}

/** The six fields of the default session template, in order. */
export const SESSION_FIELDS = ['goal', 'progress', 'decisions', 'changedFiles', 'blockers', 'nextSteps'] as const;

/** Where some values came from, for messages ("--from notes.yaml", "--transcript", "--git"). */
export interface FieldSource {
  label: string;
  values: FieldValues;
}

/** `changed_files`, `changed-files`, `Changed Files` → `changedFiles`. */
export function normalizeKey(key: string): string {
  const parts = key.trim().split(/[\s_-]+/).filter(Boolean);
  if (parts.length === 0) return '';
  const [first, ...rest] = parts;
  return first.charAt(0).toLowerCase() + first.slice(1) + rest.map((p) => p.charAt(0).toUpperCase() + p.slice(1)).join('');
}

/** One value as a trimmed string with LF line endings; '' when empty. */
export function cleanValue(value: string): string {
  return value.replace(/\r\n?/g, '\n').replace(/[ \t]+$/gm, '').trim();
}

/** Add items to a list, skipping empty ones and exact repeats. */
export function appendUnique(list: string[], items: Iterable<string>): string[] {
  const seen = new Set(list);
  for (const raw of items) {
    const item = cleanValue(raw);
    if (item === '' || seen.has(item)) continue;
    seen.add(item);
    list.push(item);
  }
  return list;
}

/** Merge sources in order: lists are concatenated with repeats dropped. */
export function mergeSources(sources: FieldSource[]): FieldValues {
  const merged = emptyValues();
  for (const source of sources) {
    for (const [key, items] of Object.entries(source.values)) {
      merged[key] = appendUnique(merged[key] ?? [], items);
    }
  }
  for (const key of Object.keys(merged)) if (merged[key].length === 0) delete merged[key];
  return merged;
}
