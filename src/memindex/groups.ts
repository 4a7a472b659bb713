import type { MemoryFile } from '../store/types.js';

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

export function isSessionFile(file: MemoryFile): boolean {
  return file.kind === 'session' || file.path.startsWith('sessions/');
}

export function groupOf(file: MemoryFile): GroupId {
  if (isSessionFile(file)) return 'sessions';
  return file.type && TYPED.has(file.type as GroupId) ? (file.type as GroupId) : 'other';
}

/** Milliseconds for an ISO date or date-time, or NaN. */
export function dateMs(value: string | undefined): number {
  return value ? Date.parse(value) : Number.NaN;
}

/** Newest first: created, else updated, else the path (session names start with a timestamp). */
export function compareSessions(a: MemoryFile, b: MemoryFile): number {
  const ta = dateMs(a.created ?? a.updated);
  const tb = dateMs(b.created ?? b.updated);
  if (ta !== tb && !(Number.isNaN(ta) && Number.isNaN(tb))) {
    if (Number.isNaN(ta)) return 1;
    if (Number.isNaN(tb)) return -1;
    return tb - ta;
  }
  return a.path < b.path ? 1 : a.path > b.path ? -1 : 0;
}

/**
 * Which entries a group keeps when the index must shrink: pinned first, then importance, then
 * the most recently updated, then path. Static on purpose: the index must not depend on the clock.
 */
export function compareKeep(a: MemoryFile, b: MemoryFile): number {
  if (a.pinned !== b.pinned) return a.pinned ? -1 : 1;
  if (a.importance !== b.importance) return b.importance - a.importance;
  const ta = dateMs(a.updated);
  const tb = dateMs(b.updated);
  if (ta !== tb && !(Number.isNaN(ta) && Number.isNaN(tb))) {
    if (Number.isNaN(ta)) return 1;
    if (Number.isNaN(tb)) return -1;
    return tb - ta;
  }
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}
