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

/** Entries in order: `at(i)` is the i-th. */
interface Ranked {
  readonly length: number;
  at(i: number): IndexEntry | undefined;
}

/**
 * Entries in a comparator's order over precomputed keys (dates are parsed once, not per comparison),
 * sorted only as far as they are read: a binary heap gives the next one. A block shows a few hundred of
 * 100,000 files; the orders are total (a path decides last), so what is read is what a sort would give.
 */
class HeapOrder implements Ranked {
  readonly length: number;
  readonly #heap: SortKey[];
  #size: number;
  readonly #compare: (a: SortKey, b: SortKey) => number;
  readonly #sorted: IndexEntry[] = [];

  constructor(files: readonly IndexEntry[], compare: (a: SortKey, b: SortKey) => number) {
    this.#heap = files.map(sortKey);
    this.length = this.#size = files.length;
    this.#compare = compare;
    for (let i = (this.#size >> 1) - 1; i >= 0; i--) this.#down(i);
  }

  at(i: number): IndexEntry | undefined {
    if (i < 0 || i >= this.length) return undefined;
    while (this.#sorted.length <= i) this.#sorted.push(this.#pop());
    return this.#sorted[i];
  }

  /** The first `n` entries, as an array. */
  first(n: number): IndexEntry[] {
    this.at(Math.min(n, this.length) - 1);
    return this.#sorted.slice(0, n);
  }

  #pop(): IndexEntry {
    const heap = this.#heap;
    const top = heap[0];
    heap[0] = heap[--this.#size];
    this.#down(0);
    return top.file;
  }

  #down(from: number): void {
    const heap = this.#heap;
    const size = this.#size;
    let i = from;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= size) return;
      const child = left + 1 < size && this.#compare(heap[left + 1], heap[left]) < 0 ? left + 1 : left;
      if (this.#compare(heap[child], heap[i]) >= 0) return;
      const held = heap[i];
      heap[i] = heap[child];
      heap[child] = held;
      i = child;
    }
  }
}

interface Group {
  id: GroupId;
  title: string;
  /** Entries in keep order (best first). */
  ranked: Ranked;
  /** The index line of ranked[i], made on first need: a block shows a few hundred of 100,000 files. */
  line(i: number): string;
  /** The bytes of the first k index lines (line endings not included). */
  bytesUpTo(k: number): number;
  /** Entries left out before any size limit (sessions beyond the latest N). */
  dropped: number;
}

function makeGroup(id: GroupId, title: string, ranked: Ranked, dropped: number, superseded: ReadonlyMap<string, string>): Group {
  const lines: string[] = [];
  const sums = [0];
  const line = (i: number) => {
    while (lines.length <= i) {
      const file = ranked.at(lines.length)!;
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
      const latest = new HeapOrder(members, compareSessions);
      groups.push(makeGroup(id, title, latest.first(sessions), Math.max(0, latest.length - sessions), superseded));
    } else {
      groups.push(makeGroup(id, title, new HeapOrder(members, compareKeep), 0, superseded));
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
  const kept = Array.from({ length: Math.min(shown, group.ranked.length) }, (_, i) => ({ path: group.ranked.at(i)!.path, line: group.line(i) }));
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
