import { inlineMarkdown, linkTarget } from '../markdown/escape.js';
import type { IndexEntry } from '../store/types.js';
import { supersession } from '../lifecycle/supersede.js';
import { BEGIN_MARKER, END_MARKER, GROUPS, compareKeep, compareSessions, groupOf, sortKey, type GroupId, type SortKey } from './groups.js';

export interface IndexOptions {
  /** Line limit for the whole MEMORY.md (Claude Code loads the first 200 lines). */
  maxLines?: number;
  /** Byte limit for the whole MEMORY.md. */
  maxBytes?: number;
  /** How many sessions the Sessions group lists. */
  sessions?: number;
  /**
   * List files that the hand-written text already lists as index lines (default false: such a file
   * is listed once, where the user or Claude Code put it).
   */
  listAll?: boolean;
}

export const DEFAULT_MAX_LINES = 200;
export const DEFAULT_MAX_BYTES = 25_000;
const DEFAULT_SESSIONS = 5;

const EMPTY_LINE = '_No memory files yet: add one with `memctx add`._';
const byteLength = (text: string) => Buffer.byteLength(text, 'utf8');

/** What one entry may take of the index: longer names and descriptions are cut with "…". */
const MAX_NAME_CHARS = 100;
export const MAX_DESCRIPTION_CHARS = 200;

/** `- [Name](relative/path.md) — description`, with everything the file contributes escaped and capped. */
export function indexLine(file: IndexEntry, superseded = false): string {
  const link = `- [${inlineMarkdown(file.name, MAX_NAME_CHARS)}](${linkTarget(file.path)})`;
  const description = file.description ? inlineMarkdown(file.description, MAX_DESCRIPTION_CHARS) : '';
  const line = description ? `${link} — ${description}` : link;
  return superseded ? `${line} (superseded)` : line;
}

/** Sort with a comparator over precomputed keys (dates are parsed once, not per comparison). */
function sortBy(files: IndexEntry[], compare: (a: SortKey, b: SortKey) => number): IndexEntry[] {
  return files.map(sortKey).sort(compare).map((key) => key.file);
}

interface Group {
  id: GroupId;
  title: string;
  /** Entries in keep order (best first). */
  ranked: IndexEntry[];
  /** The index line of ranked[i], made on first need: a block shows a few hundred of 100,000 files. */
  line(i: number): string;
  /** The bytes of the first k index lines (line endings not included). */
  bytesUpTo(k: number): number;
  /** Entries left out before any size limit (sessions beyond the latest N). */
  dropped: number;
}

function makeGroup(id: GroupId, title: string, ranked: IndexEntry[], dropped: number, superseded: ReadonlyMap<string, string>): Group {
  const lines: string[] = [];
  const sums = [0];
  const line = (i: number) => {
    while (lines.length <= i) {
      const file = ranked[lines.length];
      lines.push(indexLine(file, superseded.has(file.path)));
    }
    return lines[i];
  };
  const bytesUpTo = (k: number) => {
    while (sums.length <= k) sums.push(sums[sums.length - 1] + byteLength(line(sums.length - 1)));
    return sums[k];
  };
  return { id, title, ranked, line, bytesUpTo, dropped };
}

function buildGroups(files: IndexEntry[], sessions: number): Group[] {
  const { superseded } = supersession(files);
  const byId = new Map<GroupId, IndexEntry[]>();
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
      const latest = sortBy(members, compareSessions);
      groups.push(makeGroup(id, title, latest.slice(0, sessions), Math.max(0, latest.length - sessions), superseded));
    } else {
      groups.push(makeGroup(id, title, sortBy(members, compareKeep), 0, superseded));
    }
  }
  return groups;
}

function overflowLine(group: Group, hidden: number): string {
  const listCommand = group.id === 'sessions' ? 'memctx ls --kind session --unlisted' : `memctx ls --type ${group.id} --unlisted`;
  const noun = group.id === 'sessions' ? 'older sessions' : 'more';
  return `- … and ${hidden} ${noun}: \`${listCommand}\``;
}

function renderGroup(group: Group, shown: number): string[] {
  const kept = group.ranked.slice(0, shown).map((file, i) => ({ path: file.path, line: group.line(i) }));
  const ordered = group.id === 'sessions' ? kept : kept.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  // A blank line under the heading: Markdown linters want headings and lists set apart.
  const lines = [`## ${group.title}`, '', ...ordered.map((entry) => entry.line)];
  const hidden = group.ranked.length - shown + group.dropped;
  if (hidden > 0) lines.push(overflowLine(group, hidden));
  return lines;
}

function renderBlock(groups: Group[], caps: number[]): string[] {
  const lines = [BEGIN_MARKER];
  if (groups.length === 0) lines.push(EMPTY_LINE);
  groups.forEach((group, i) => {
    if (i > 0) lines.push('');
    lines.push(...renderGroup(group, caps[i]));
  });
  lines.push(END_MARKER);
  return lines;
}

/** Lines the block would take with these caps, without rendering it. */
function blockLines(groups: Group[], caps: number[]): number {
  let lines = 2;
  groups.forEach((group, i) => {
    if (i > 0) lines += 1;
    lines += 2 + caps[i];
    if (group.ranked.length - caps[i] + group.dropped > 0) lines += 1;
  });
  return groups.length === 0 ? lines + 1 : lines;
}

/** Bytes the block would take with these caps, each of its `lines` lines ended by `eol`, without rendering it. */
function blockBytes(groups: Group[], caps: number[], eol: string, lines: number): number {
  let bytes = byteLength(BEGIN_MARKER) + byteLength(END_MARKER);
  groups.forEach((group, i) => {
    bytes += byteLength(`## ${group.title}`) + group.bytesUpTo(caps[i]);
    const hidden = group.ranked.length - caps[i] + group.dropped;
    if (hidden > 0) bytes += byteLength(overflowLine(group, hidden));
  });
  if (groups.length === 0) bytes += byteLength(EMPTY_LINE);
  return bytes + lines * eol.length;
}

/** Lines are counted first: the bytes (which need the index lines) only for a block within the line limit. */
function fits(groups: Group[], caps: number[], room: Room, eol: string): boolean {
  const lines = blockLines(groups, caps);
  return lines <= room.lines && blockBytes(groups, caps, eol, lines) <= room.bytes;
}

/**
 * Pick how many entries each group shows so the block fits: the largest uniform cap first, then
 * one more entry at a time to groups in order while it still fits.
 */
function chooseCaps(groups: Group[], room: Room, eol: string): number[] {
  const full = groups.map((g) => g.ranked.length);
  if (fits(groups, full, room, eol)) return full;
  const capped = (k: number) => full.map((n) => Math.min(n, k));
  let lo = 0;
  let hi = Math.max(0, ...full);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(groups, capped(mid), room, eol)) lo = mid;
    else hi = mid - 1;
  }
  const caps = capped(lo);
  for (let changed = true; changed; ) {
    changed = false;
    for (let i = 0; i < groups.length; i++) {
      if (caps[i] >= full[i]) continue;
      caps[i]++;
      if (fits(groups, caps, room, eol)) changed = true;
      else caps[i]--;
    }
  }
  return caps;
}

interface Room {
  lines: number;
  bytes: number;
}

/**
 * The generated block, markers included, as lines; sized to fit the room left by the hand-written
 * text once its lines are joined with `eol`.
 */
export function renderIndexBlock(files: IndexEntry[], room: Room, options: IndexOptions = {}, eol = '\n', saySoWhenEmpty = true): string[] {
  const groups = buildGroups(files, options.sessions ?? DEFAULT_SESSIONS);
  // Every file listed by hand: an empty block, not "no memory files yet".
  if (groups.length === 0 && !saySoWhenEmpty) return [BEGIN_MARKER, END_MARKER];
  return renderBlock(groups, chooseCaps(groups, room, eol));
}
