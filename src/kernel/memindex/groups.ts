import type { IndexEntry } from '../store/types.js';
import { dateMs } from '../dates.js';

export const BEGIN_MARKER = '<!-- memctx:begin -->';
export const END_MARKER = '<!-- memctx:end -->';

export type GroupId = 'user' | 'feedback' | 'project' | 'reference' | 'other' | 'sessions';

export const GROUPS: { id: GroupId; title: string }[] = [
  { id: 'user', title: 'User' },
  { id: 'feedback', title: 'Feedback' },
  { id: 'project', title: 'Project' },
  { id: 'reference', title: 'Reference' },
  { id: 'other', title: 'Other' },
  { id: 'sessions', title: 'Sessions' },
];

const TYPED = new Set<GroupId>(['user', 'feedback', 'project', 'reference']);

export function isSessionFile(file: Pick<IndexEntry, 'kind' | 'path'>): boolean {
  return file.kind === 'session' || file.path.startsWith('sessions/');
}

export interface ListFilters {
  type?: string;
  kind?: string;
  tag?: string;
}

/**
 * The `--type`, `--kind` and `--tag` filters of ls and search, matching the index's groups:
 * `--type other` is the Other group (no type, or not a known one); `--kind session` takes files in
 * sessions/ too.
 */
export function matchesListFilters(file: Pick<IndexEntry, 'kind' | 'path' | 'type' | 'tags'>, filters: ListFilters): boolean {
  if (filters.type) {
    const wanted = filters.type.toLowerCase();
    const group = file.type && TYPED.has(file.type as GroupId) ? file.type : 'other';
    if (group !== wanted && file.type !== wanted) return false;
  }
  if (filters.kind) {
    const kind = filters.kind.toLowerCase();
    if (file.kind !== kind && !(kind === 'session' && isSessionFile(file))) return false;
  }
  if (filters.tag && !file.tags.some((t) => t.toLowerCase() === filters.tag!.toLowerCase())) return false;
  return true;
}

export function groupOf(file: IndexEntry): GroupId {
  if (isSessionFile(file)) return 'sessions';
  return file.type && TYPED.has(file.type as GroupId) ? (file.type as GroupId) : 'other';
}


/** A file with the dates its orderings need, parsed once. */
export interface SortKey {
  file: IndexEntry;
  /** created, else updated (sessions). */
  started: number;
  updated: number;
}

export function sortKey(file: IndexEntry): SortKey {
  return { file, started: dateMs(file.created ?? file.updated), updated: dateMs(file.updated) };
}

/** Later dates first; a missing date after any date. */
function compareDatesDesc(a: number, b: number): number {
  if (a === b || (Number.isNaN(a) && Number.isNaN(b))) return 0;
  if (Number.isNaN(a)) return 1;
  if (Number.isNaN(b)) return -1;
  return b - a;
}

function comparePath(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Newest first: created, else updated, else the path (session names start with a timestamp). */
export function compareSessions(a: SortKey, b: SortKey): number {
  return compareDatesDesc(a.started, b.started) || comparePath(b.file.path, a.file.path);
}

/**
 * Which entries a group keeps when the index must shrink: pinned first, then importance, then
 * the most recently updated, then path. Static on purpose: the index must not depend on the clock.
 */
export function compareKeep(a: SortKey, b: SortKey): number {
  if (a.file.pinned !== b.file.pinned) return a.file.pinned ? -1 : 1;
  return b.file.importance - a.file.importance || compareDatesDesc(a.updated, b.updated) || comparePath(a.file.path, b.file.path);
}
