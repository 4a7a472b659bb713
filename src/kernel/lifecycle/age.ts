import { isoDay, parseDate } from '../dates.js';

/**
 * A memory file's age, one rule for pack, search, gc and lint: `updated` (or `modified`), else
 * `created`, else its last commit time in git (when the caller looked it up), else its mtime — so a
 * fresh clone, which gives every file a new mtime, does not make old files look new.
 */
export interface Dated {
  readonly updated?: string;
  readonly created?: string;
  readonly committedMs?: number;
  readonly mtimeMs: number;
}

export type AgeSource = 'updated' | 'created' | 'git' | 'mtime';

export function fileTime(file: Dated): { ms: number; source: AgeSource; label: string } {
  for (const [value, source] of [[file.updated, 'updated'], [file.created, 'created']] as const) {
    const ms = parseDate(value);
    if (ms !== undefined) return { ms, source, label: value! };
  }
  if (file.committedMs !== undefined && Number.isFinite(file.committedMs)) return { ms: file.committedMs, source: 'git', label: `${isoDay(file.committedMs)} (last commit)` };
  return { ms: file.mtimeMs, source: 'mtime', label: `${isoDay(file.mtimeMs)} (file time)` };
}

/** fileTime's `ms`, without building its label (pack asks it for every file several times). */
export const fileTimeMs = (file: Dated): number =>
  parseDate(file.updated) ?? parseDate(file.created) ?? (file.committedMs !== undefined && Number.isFinite(file.committedMs) ? file.committedMs : file.mtimeMs);
