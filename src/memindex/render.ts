import type { MemoryFile } from '../store/types.js';
import { BEGIN_MARKER, END_MARKER, GROUPS, compareKeep, compareSessions, groupOf, type GroupId } from './groups.js';

export interface IndexOptions {
  /** Line limit for the whole MEMORY.md (Claude Code loads the first 200 lines). */
  maxLines?: number;
  /** Byte limit for the whole MEMORY.md. */
  maxBytes?: number;
  /** How many sessions the Sessions group lists. */
  sessions?: number;
}

export const DEFAULT_MAX_LINES = 200;
export const DEFAULT_MAX_BYTES = 25_000;
export const DEFAULT_SESSIONS = 5;

const encoder = new TextEncoder();
const byteLength = (text: string) => encoder.encode(text).length;

function escapeLinkText(text: string): string {
  return text.replace(/[\\[\]]/g, (c) => `\\${c}`).replace(/\s+/g, ' ');
}

function linkTarget(path: string): string {
  return path.split('/').map((part) => encodeURIComponent(part).replace(/[()]/g, (c) => (c === '(' ? '%28' : '%29'))).join('/');
}

/** `- [Name](relative/path.md) — description` */
export function indexLine(file: MemoryFile): string {
  const link = `- [${escapeLinkText(file.name)}](${linkTarget(file.path)})`;
  return file.description ? `${link} — ${file.description}` : link;
}

interface Group {
  id: GroupId;
  title: string;
  /** Entries in keep order (best first). */
  ranked: MemoryFile[];
  /** Entries left out before any size limit (sessions beyond the latest N). */
  dropped: number;
}

function buildGroups(files: MemoryFile[], sessions: number): Group[] {
  const byId = new Map<GroupId, MemoryFile[]>();
  for (const file of files) {
    const id = groupOf(file);
    const members = byId.get(id);
    if (members) members.push(file);
    else byId.set(id, [file]);
  }
  const groups: Group[] = [];
  for (const { id, title } of GROUPS) {
    const members = byId.get(id);
    if (!members?.length) continue;
    if (id === 'sessions') {
      const latest = [...members].sort(compareSessions);
      groups.push({ id, title, ranked: latest.slice(0, sessions), dropped: Math.max(0, latest.length - sessions) });
    } else {
      groups.push({ id, title, ranked: [...members].sort(compareKeep), dropped: 0 });
    }
  }
  return groups;
}

function overflowLine(group: Group, hidden: number): string {
  const listCommand = group.id === 'sessions' ? 'memctx ls --kind session' : `memctx ls --type ${group.id}`;
  const noun = group.id === 'sessions' ? 'older sessions' : 'more';
  return `- … and ${hidden} ${noun}: \`${listCommand}\``;
}

function renderGroup(group: Group, shown: number): string[] {
  const kept = group.ranked.slice(0, shown);
  const ordered = group.id === 'sessions' ? kept : [...kept].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const lines = [`## ${group.title}`, ...ordered.map(indexLine)];
  const hidden = group.ranked.length - shown + group.dropped;
  if (hidden > 0) lines.push(overflowLine(group, hidden));
  return lines;
}

function renderBlock(groups: Group[], caps: number[]): string[] {
  const lines = [BEGIN_MARKER];
  if (groups.length === 0) lines.push('_No memory files yet: add one with `memctx add`._');
  groups.forEach((group, i) => {
    if (i > 0) lines.push('');
    lines.push(...renderGroup(group, caps[i]));
  });
  lines.push(END_MARKER);
  return lines;
}

function fits(lines: string[], maxLines: number, maxBytes: number, eol: string): boolean {
  return lines.length <= maxLines && byteLength(lines.join(eol)) + eol.length <= maxBytes;
}

/**
 * Pick how many entries each group shows so the block fits: the largest uniform cap first, then
 * one more entry at a time to groups in order while it still fits.
 */
function chooseCaps(groups: Group[], maxLines: number, maxBytes: number, eol: string): number[] {
  const full = groups.map((g) => g.ranked.length);
  if (fits(renderBlock(groups, full), maxLines, maxBytes, eol)) return full;
  const capped = (k: number) => full.map((n) => Math.min(n, k));
  let lo = 0;
  let hi = Math.max(0, ...full);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(renderBlock(groups, capped(mid)), maxLines, maxBytes, eol)) lo = mid;
    else hi = mid - 1;
  }
  const caps = capped(lo);
  for (let changed = true; changed; ) {
    changed = false;
    for (let i = 0; i < groups.length; i++) {
      if (caps[i] >= full[i]) continue;
      caps[i]++;
      if (fits(renderBlock(groups, caps), maxLines, maxBytes, eol)) changed = true;
      else caps[i]--;
    }
  }
  return caps;
}

/**
 * The generated block, markers included, as lines; sized to fit the room left by the hand-written
 * text once its lines are joined with `eol`.
 */
export function renderIndexBlock(files: MemoryFile[], room: { lines: number; bytes: number }, options: IndexOptions = {}, eol = '\n'): string[] {
  const groups = buildGroups(files, options.sessions ?? DEFAULT_SESSIONS);
  return renderBlock(groups, chooseCaps(groups, room.lines, room.bytes, eol));
}
