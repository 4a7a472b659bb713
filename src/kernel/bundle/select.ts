/**
 * Selection under a hard budget (design §5, issues 11 and 23). Pieces are placed in priority order
 * while they fit. MEMORY.md's index first (it is the map: whole when it fits, else the lines of the
 * highest-ranked groups; with a task it takes at most INDEX_SHARE of the budget until the task's pieces are placed, then the room they left). Then pinned
 * files in full, the profile's picks and --focus files (and what they link to). With a task, the
 * files and passages it matches compete in one selection (placeByTask) by expected evidence per
 * token: a transcript whole or as runs of its matching turns with their neighbours (the turns near its
 * best-matching turn valued by their nearness), a note whole
 * within its share of the room left or else by its passages, each pick raised by the query terms it
 * covers that earlier picks did not. Without a task, files in rank order,
 * each in full where it fits, a wanted file too large for the room left as its head with a
 * pointer. Then descriptions with the command that loads them, then a note saying what was left
 * out. Superseded files never go in full. Every piece's cost is its exact token count and the
 * pieces add up exactly (src/kernel/tokens/join.ts), so the bundle's count never exceeds the budget.
 */
import type { MemoryFile } from '../store/types.js';
import { linkedPaths } from '../markdown/links.js';
import { countJoined } from '../tokens/join.js';
import { bestPick, pickValue, type Retrieval, type ScoredPassage } from '../rank/retrieve.js';
import { isDialogue, isTurnOrItem, type Passage } from '../text/passages.js';
import { RENDERERS, fileText, showCommand, type BundleFormat, type LeftOut, type Renderer, type SectionId } from './render.js';
import { TASK_FLOOR, type FileScore } from '../rank/score.js';
import { rankOrder } from '../rank/rank.js';
import type { PackFile } from '../rank/types.js';
import { knownTokens, type FileTokens } from '../rank/file-tokens.js';

/** Score labels of the report (design §5): tiers a score would have asked for. */
const FULL_SCORE = 70;
const DESCRIPTION_SCORE = 40;
/** Descriptions tried in vain before the rest are skipped when even the cheapest seen cannot fit. */
const GIVE_UP_AFTER = 20;
/** A head shorter than this many tokens is not worth a place: the file gets a description instead. */
const MIN_HEAD_TOKENS = 120;

/** With a task, a file larger than this share of the budget contributes passages instead of its whole text. */
const FILE_SHARE = 1 / 3;
/**
 * With a task, the index takes at most this share of the budget (its best-ranked lines): the task's
 * files and passages are worth more per token than lines naming files (LoCoMo: +0.5 points at 2k).
 */
const INDEX_SHARE = 0.05;
/** A passage's rank: its own match, weighted this much against its file's. */
const PASSAGE_OWN = 0.6;
/** At most this many matched passages are weighed in one selection. */
const MAX_UNITS = 200;
/** A dialogue turn or list item comes with this many passages on each side. */
const NEIGHBOURS = 1;
/**
 * A transcript's turns this close to its best-matching turn are worth something of their own, its
 * value times NEAR_DECAY per turn away (LoCoMo, tune and held-out halves: +0.9 / +1.4 points of
 * evidence at 2k, +1.3 / +1.0 at 4k, +0.5 / 0 at 8k).
 */
const NEAR_TURNS = 3;
const NEAR_DECAY = 0.35;
/** An offer's rank is its value over its tokens to this power (1: evidence per token). */
const DENSITY_POWER = 1;
/**
 * A note (any file that is not a transcript) ranks by its value alone, as the task ranks it: it is
 * read whole where it fits its share, and its passages count for little against it.
 */
const NOTE_POWER = 0;
/**
 * What a file may hold beyond its matched passages, in passage values. A file's expected evidence
 * is its task score; a run of its passages gets the share of it its passages' values make of the
 * file's (their values plus this).
 */
const UNMATCHED = 1.5;
/**
 * The same for a file that is not a dialogue (a note, a list, sections): it is about its subject as a
 * whole, so a run of it carries a small share of what the whole file holds.
 */
const NOTE_UNMATCHED = 8;

export type Tier = 'full' | 'head' | 'passages' | 'description' | 'index' | 'none';

export interface PackInput {
  files: readonly PackFile[];
  /** One per file, same order. */
  scores: readonly FileScore[];
  /** Lines of MEMORY.md's generated block, without the markers. */
  indexLines: readonly string[];
  budget: number;
  format: BundleFormat;
  encoding: string;
  /** Paths the profile loads first, in order. */
  picks?: readonly string[];
  /** --focus paths and the files they link to, loaded after the picks. */
  focus?: readonly string[];
  /** Only files the task or --focus reaches get a place beyond the index (handoff-specialist). */
  taskOnly?: boolean;
  /** Exact token count (cached). */
  count: (text: string) => number;
  /** Each file's text (`fileText`); by default from the file itself, which must then be a MemoryFile. */
  text?: (i: number) => string;
  /** The same text without asking its token count (`text` may count it): what a whole file's bytes bound its cost by; default `text`. */
  plainText?: (i: number) => string;
  /**
   * What a file's text adds to its full piece in bytes, `measure.of` of its plain text: from a cache that
   * keeps the answer by `measure.id` (no text read); by default measured from `plainText`.
   */
  fullTextBytes?: (i: number, measure: { id: string; of(text: string): number }) => number;
  /** Each file's token count, when the caller already has it (or counts it on demand: file-tokens.ts). */
  tokens?: readonly number[] | FileTokens;
  /** The command prefix for load hints: `memctx`, or with the --dir/--claude the bundle was built with. */
  memctx?: string;
  /** The task's retrieval (search/retrieve.ts): its passages and the terms each file and passage holds. */
  retrieval?: Retrieval;
}

export interface PackedFile extends FileScore {
  name: string;
  /** The tier its score stands for (a label: >= 70 full, 40-69 description, else index). */
  planned: 'full' | 'description' | 'index';
  /** What the bundle holds for the file. */
  tier: Tier;
  /** Tokens of the whole file. */
  tokens: number;
  /** Set when `tokens` is an estimate: a task's pack counts only the files that may enter the bundle. */
  estimated?: true;
  /** Tokens its piece takes in the bundle. */
  bundleTokens: number;
  note?: string;
}

export interface PackResult {
  text: string;
  /** Exact token count of text. */
  tokens: number;
  budget: number;
  format: BundleFormat;
  encoding: string;
  /** Tokens of the files in full (and heads). */
  fullTokens: number;
  indexLines: { total: number; included: number };
  /** Files in rank order, best first. */
  files: PackedFile[];
  leftOut: { files: string[]; indexLines: number };
  /** Pinned files that could not go in full. */
  pinnedLeftOut: string[];
  /** Tokens of every file loaded in full, and what the bundle saves against that. */
  totalFileTokens: number;
  /** Set when totalFileTokens (and saved) include estimates (files a task's pack did not count). */
  estimated?: true;
  saved: number;
}

interface Entry {
  section: SectionId;
  key: string;
  parts: string[];
  cost: number;
  /** File index for full/description entries. */
  file?: number;
  /** Set for a file that went in as its head. */
  head?: boolean;
  /** Set for a passage of a file. */
  passage?: ScoredPassage;
  /** The index lines an index entry holds. */
  lines?: readonly string[];
}

function scoreLabel(score: FileScore): PackedFile['planned'] {
  return score.score >= FULL_SCORE ? 'full' : score.score >= DESCRIPTION_SCORE ? 'description' : 'index';
}

/** Whether a file may have more than an index line (handoff-specialist: only what the task or --focus reaches). */
function reached(score: FileScore, focus: ReadonlySet<string>, taskOnly: boolean): boolean {
  return !taskOnly || score.task >= TASK_FLOOR || score.dependency > 0 || focus.has(score.path);
}

interface FullOrder {
  order: number[];
  /** Files worth a head when they do not fit whole. */
  wanted: Set<number>;
  /** Pinned files, the profile's picks and --focus files: placed first, whatever the task. */
  priority: Set<number>;
}

/** Files in the order they are offered a place in full (`ranked`: every file in rank order). */
function fullOrder(input: PackInput, ranked: readonly number[]): FullOrder {
  const { files, scores } = input;
  const pickRank = new Map((input.picks ?? []).map((p, i) => [p, i]));
  const focusRank = new Map((input.focus ?? []).map((p, i) => [p, i]));
  const focus = new Set(input.focus ?? []);
  // Group (pinned, picks, focus, rest) and place within it, computed once per file for the sort.
  const groups = files.map((f) => (f.pinned ? 0 : pickRank.has(f.path) ? 1 : focusRank.has(f.path) ? 2 : 3));
  const within = files.map((f, i) => (groups[i] === 1 ? pickRank.get(f.path)! : groups[i] === 2 ? focusRank.get(f.path)! : 0));
  const group = (i: number) => groups[i];
  const order = ranked.filter((i) => !scores[i].superseded && reached(scores[i], focus, Boolean(input.taskOnly)));
  // A stable sort of files in rank order: rank order within each group and place.
  if (groups.some((g) => g < 3)) order.sort((a, b) => groups[a] - groups[b] || within[a] - within[b]);
  const wanted = new Set(order.filter((i) => group(i) < 3 || scores[i].task >= 0.35));
  return { order, wanted, priority: new Set(order.filter((i) => group(i) < 3)) };
}

class Layout {
  used = 0;
  readonly entries: Entry[] = [];
  private readonly sizes = new Map<string, number>();

  constructor(private readonly renderer: Renderer, private readonly count: (text: string) => number, readonly fixed: number) {
    this.used = fixed;
  }

  isFirst(section: SectionId): boolean {
    return (this.sizes.get(this.renderer.sectionKey(section)) ?? 0) === 0;
  }

  /** Cost of adding these parts to a section (its opener and closer too when it is empty). */
  cost(section: SectionId, parts: string[]): number {
    const frame = this.isFirst(section) ? this.count(this.renderer.open(section)) + this.count(this.renderer.close(section)) : 0;
    return frame + countJoined(parts, this.count);
  }

  add(entry: Entry): void {
    this.sizes.set(entry.key, (this.sizes.get(entry.key) ?? 0) + 1);
    this.entries.push(entry);
    this.used += entry.cost;
  }

  /** Take an entry out; returns where it stood. */
  remove(entry: Entry): number {
    const at = this.entries.indexOf(entry);
    this.entries.splice(at, 1);
    this.sizes.set(entry.key, this.sizes.get(entry.key)! - 1);
    this.used -= entry.cost;
    return at;
  }

  /** Move the last entry added to place `at`. */
  moveLast(at: number): void {
    this.entries.splice(at, 0, this.entries.pop()!);
  }

  pop(): Entry | undefined {
    const entry = this.entries.pop();
    if (!entry) return undefined;
    this.sizes.set(entry.key, this.sizes.get(entry.key)! - 1);
    this.used -= entry.cost;
    return entry;
  }
}

interface Plan {
  layout: Layout;
  /** Per file, what the report says of its place (none where its tier says it all). */
  notes: (string | undefined)[];
  /** Roughly what the pieces that did not fit would have cost. */
  missed: number;
}

/** The first lines of a text whose piece fits in `room` tokens, with a pointer to the rest; undefined when none fit. */
function headPiece(input: PackInput, renderer: Renderer, layout: Layout, i: number, text: string, tokens: number, room: number): { parts: string[]; cost: number } | undefined {
  const file = input.files[i];
  const lines = text.split('\n');
  const piece = (n: number) => {
    const head = `${lines.slice(0, n).join('\n')}\n`;
    const left = Math.max(1, tokens - input.count(head));
    const parts = renderer.full(file, input.scores[i], `${head}[… ${left} more tokens of this file left out: ${showCommand(file.path, input.memctx)}]\n`, layout.isFirst('full'));
    return { parts, cost: layout.cost('full', parts) };
  };
  let lo = 0;
  let hi = lines.length - 1;
  let best: { parts: string[]; cost: number } | undefined;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    const candidate = piece(mid);
    if (candidate.cost <= room) {
      best = candidate;
      lo = mid;
    } else hi = mid - 1;
  }
  return best && best.cost >= MIN_HEAD_TOKENS ? best : undefined;
}

/** What the steps of one layout share: the room, the files placed so far and the notes on them. */
interface Placing {
  input: PackInput;
  renderer: Renderer;
  layout: Layout;
  text: (i: number) => string;
  tokens: FileTokens;
  room: number;
  placed: Set<number>;
  notes: (string | undefined)[];
  /** A file in full where it fits (placed and true), else false. */
  tryFull: (i: number) => boolean;
  /** Every file in rank order. */
  ranked: readonly number[];
}

/** What every layout of one bundle shares: the files in rank order, the order they are offered a place in full, and MEMORY.md's lines ranked and whole (on first use). */
interface Orders {
  ranked: readonly number[];
  full: FullOrder;
  index: () => IndexOrder;
  /** Every index line's parts and what the whole index costs, with its opener and closer. */
  wholeIndex: () => { parts: string[]; cost: number };
}

function layoutBundle(input: PackInput, renderer: Renderer, text: (i: number) => string, tokens: FileTokens, reserve: number, orders: Orders): Plan {
  const { budget, count } = input;
  const fixed = count(renderer.header({ budget, encoding: input.encoding })) + count(renderer.trailer());
  const layout = new Layout(renderer, count, fixed);
  const notes = new Array<string | undefined>(input.files.length);
  if (fixed > budget) return { layout, notes, missed: Number.POSITIVE_INFINITY };
  const room = budget - reserve;
  const byTask = Boolean(input.retrieval?.terms.length);

  // 1. The index, first: the map. With a task it takes at most INDEX_SHARE of the room, and at the end what the rest left.
  const { order, wanted, priority } = orders.full;
  const indexMissed = placeIndex(input, renderer, layout, orders, byTask ? layout.used + Math.floor((room - layout.used) * INDEX_SHARE) : room);

  const placed = new Set<number>();
  const tryFull = (i: number): boolean => {
    // A file's own tokens nearly bound its piece from below: skip rendering what cannot fit.
    if (tokens.over(i, room - layout.used)) return false;
    const parts = renderer.full(input.files[i], input.scores[i], text(i), layout.isFirst('full'));
    const cost = layout.cost('full', parts);
    if (layout.used + cost > room) return false;
    layout.add({ section: 'full', key: renderer.sectionKey('full'), parts, cost, file: i });
    placed.add(i);
    return true;
  };
  const placing: Placing = { input, renderer, layout, text, tokens, room, placed, notes, tryFull, ranked: orders.ranked };
  placeFiles(placing, order, byTask ? priority : wanted, byTask);
  const missed = placeDescriptions(placing);
  return { layout, notes, missed: missed + (indexMissed > 0 && layout.used < room ? widenIndex(input, renderer, layout, orders, room) : indexMissed) };
}

/** With a task, the index held to its share takes back the room the other pieces left, in the same place. Returns what its lines left out would cost. */
function widenIndex(input: PackInput, renderer: Renderer, layout: Layout, orders: Orders, room: number): number {
  const entry = layout.entries.find((e) => e.section === 'index');
  const at = entry ? layout.remove(entry) : 0;
  const missed = placeIndex(input, renderer, layout, orders, room);
  if (layout.entries.at(-1)?.section === 'index') layout.moveLast(at);
  return missed;
}

/** A file's head with a pointer to the rest, in the full section. */
function addHead(placing: Placing, i: number, head: { parts: string[]; cost: number }, note: string): void {
  placing.layout.add({ section: 'full', key: placing.renderer.sectionKey('full'), parts: head.parts, cost: head.cost, file: i, head: true });
  placing.placed.add(i);
  placing.notes[i] = note;
}

/**
 * 2. Files in full, in priority order, each where it fits: first the wanted ones (pinned, picks,
 * --focus; without a task also those it matches), then heads of wanted ones too large; with a
 * task, the files and passages it matches; then every other file.
 */
function placeFiles(placing: Placing, order: readonly number[], first: ReadonlySet<number>, byTask: boolean): void {
  const { input, renderer, layout, text, tokens, room, placed, tryFull } = placing;
  const { budget } = input;
  for (const i of order) if (first.has(i)) tryFull(i);
  for (const i of order) {
    if (!first.has(i) || placed.has(i)) continue;
    const head = room - layout.used >= MIN_HEAD_TOKENS ? headPiece(input, renderer, layout, i, text(i), tokens.exact(i), room - layout.used) : undefined;
    if (head) addHead(placing, i, head, tokens.over(i, budget) ? 'larger than the whole budget: its head, with a pointer to the rest' : 'too large for the room left: its head, with a pointer to the rest');
  }
  if (byTask) placeByTask(placing, order);
  placeRest(placing, order, first, byTask);
}

/** The rest in rank order; without a task, a file larger than its share goes in as its head. */
function placeRest(placing: Placing, order: readonly number[], first: ReadonlySet<number>, byTask: boolean): void {
  const { input, renderer, layout, text, tokens, room, tryFull } = placing;
  const { scores } = input;
  const share = Math.floor((room - layout.used) * FILE_SHARE);
  for (const i of order) {
    if (first.has(i) || (byTask && matched(scores[i]))) continue;
    if (byTask || !tokens.over(i, share)) {
      tryFull(i);
      continue;
    }
    const head = share >= MIN_HEAD_TOKENS ? headPiece(input, renderer, layout, i, text(i), tokens.exact(i), Math.min(share, room - layout.used)) : undefined;
    if (head) addHead(placing, i, head, 'larger than its share of the budget: its head, with a pointer to the rest');
  }
}

/**
 * 3. Descriptions of the rest, in rank order (superseded ones too, marked so), each noted with why it
 * is not in full (a file not counted is not counted for the note). Returns roughly what those left out would cost.
 */
function placeDescriptions(placing: Placing): number {
  const { input, renderer, layout, room, placed, notes, tokens } = placing;
  const { files, scores } = input;
  const focus = new Set(input.focus ?? []);
  const described = placing.ranked.filter((i) => !placed.has(i) && reached(scores[i], focus, Boolean(input.taskOnly)));
  let missed = 0;
  let cheapest = Number.POSITIVE_INFINITY;
  let misses = 0;
  for (const i of described) {
    // Once many tries failed and the room left is below the cheapest line seen, stop counting.
    if (misses >= GIVE_UP_AFTER && room - layout.used < cheapest) {
      notes[i] = 'did not fit the budget';
      missed += cheapest;
      continue;
    }
    const parts = renderer.description(files[i], scores[i], layout.isFirst('description'), input.memctx);
    const cost = layout.cost('description', parts);
    cheapest = Math.min(cheapest, cost);
    if (layout.used + cost <= room) {
      layout.add({ section: 'description', key: renderer.sectionKey('description'), parts, cost, file: i });
      if (!scores[i].superseded) notes[i] = tokens.surelyOver(i, input.budget) ? 'larger than the whole budget: listed by description' : 'did not fit in full: listed by description';
    } else {
      notes[i] = 'did not fit the budget';
      missed += cost;
      misses++;
    }
  }
  return missed;
}

/** A file the task matches (it competes by its match, whole or as passages). */
const matched = (score: FileScore) => score.task >= TASK_FLOOR && !score.superseded;

/** MEMORY.md's lines as placeIndex keeps them: each line's group heading (-1: none), and the lines that are no heading, best first. */
interface IndexOrder {
  heading: Int32Array;
  candidates: number[];
}

/**
 * The index lines ranked by the files they link to (files in rank order first, then the rest by score):
 * a group ranks by its best line; within it, lines by their file's rank. Only the paths the lines link
 * to are given a rank.
 */
function indexOrder(input: PackInput, ranked: readonly number[], order: readonly number[]): IndexOrder {
  const lines = input.indexLines;
  const heading = new Int32Array(lines.length).fill(-1);
  const lineRank = new Float64Array(lines.length).fill(Number.POSITIVE_INFINITY);
  const links: (Set<string> | undefined)[] = [];
  const linked = new Set<string>();
  let group = -1;
  lines.forEach((line, n) => {
    if (line.startsWith('## ')) {
      group = n;
      return;
    }
    heading[n] = group;
    links[n] = linkedPaths(line);
    for (const path of links[n]) linked.add(path);
  });
  const rankOf = pathRanks(input, ranked, order, linked);
  lines.forEach((_, n) => {
    for (const path of links[n] ?? []) lineRank[n] = Math.min(lineRank[n], rankOf.get(path) ?? Number.POSITIVE_INFINITY);
  });
  const groupRank = new Map<number, number>();
  lines.forEach((_, n) => {
    if (heading[n] >= 0 || !lines[n].startsWith('## ')) groupRank.set(heading[n], Math.min(groupRank.get(heading[n]) ?? Number.POSITIVE_INFINITY, lineRank[n]));
  });
  const candidates = lines
    .map((_, n) => n)
    .filter((n) => !lines[n].startsWith('## '))
    .sort((a, b) => (groupRank.get(heading[a]) ?? 0) - (groupRank.get(heading[b]) ?? 0) || heading[a] - heading[b] || lineRank[a] - lineRank[b] || a - b);
  return { heading, candidates };
}

/** The rank of each of these paths' files: its place in `order`, else after them by its place among the other files in rank order. */
function pathRanks(input: PackInput, ranked: readonly number[], order: readonly number[], paths: ReadonlySet<string>): Map<string, number> {
  const rankOf = new Map<string, number>();
  if (paths.size === 0) return rankOf;
  const inOrder = new Uint8Array(input.files.length);
  order.forEach((i, r) => {
    inOrder[i] = 1;
    if (paths.has(input.files[i].path)) rankOf.set(input.files[i].path, r);
  });
  let r = order.length;
  for (const i of ranked) {
    if (inOrder[i]) continue;
    if (paths.has(input.files[i].path)) rankOf.set(input.files[i].path, r);
    r++;
  }
  return rankOf;
}

/** Every index line's parts, and the cost of the whole index with its opener and closer. */
function wholeIndex(input: PackInput, renderer: Renderer): { parts: string[]; cost: number } {
  const parts = input.indexLines.flatMap((line, n) => renderer.indexLine(line, n === 0));
  return { parts, cost: input.count([renderer.open('index'), ...parts, renderer.close('index')].join('')) };
}

/**
 * MEMORY.md's index lines, up to `limit` tokens used: whole when it fits, else the lines of the
 * highest-ranked groups (indexOrder), each group with its heading, in the index's own order. Returns
 * what the lines left out would cost.
 */
function placeIndex(input: PackInput, renderer: Renderer, layout: Layout, orders: Orders, limit: number): number {
  const lines = input.indexLines;
  if (lines.length === 0) return 0;
  const { count } = input;
  const { parts: wholeParts, cost: wholeCost } = orders.wholeIndex();
  if (layout.used + wholeCost <= limit) {
    layout.add({ section: 'index', key: renderer.sectionKey('index'), parts: wholeParts, cost: wholeCost, lines });
    return 0;
  }
  const { heading, candidates } = orders.index();
  // Keep lines while they fit, each line's cost counted once (and its group's heading with the
  // group's first line); then the kept index is counted as rendered, dropping lines while it is over.
  const frame = count(renderer.open('index')) + count(renderer.close('index'));
  const costOf = (n: number) => count(renderer.indexLine(lines[n], false).join(''));
  const kept = new Set<number>();
  const headed = new Set<number>();
  let used = layout.used + frame;
  let misses = 0;
  for (const n of candidates) {
    const h = heading[n];
    const add = costOf(n) + (h >= 0 && !headed.has(h) ? costOf(h) : 0);
    if (used + add > limit) {
      // Lines are short and alike: after many misses in a row the rest will not fit either.
      if (++misses >= GIVE_UP_AFTER) break;
      continue;
    }
    misses = 0;
    used += add;
    kept.add(n);
    if (h >= 0) headed.add(h);
  }
  const ordered = lines.map((_, n) => n).filter((n) => kept.has(n) || headed.has(n));
  const render = (shown: readonly number[]) => shown.flatMap((n, k) => renderer.indexLine(lines[n], k === 0));
  let parts = render(ordered);
  let cost = layout.cost('index', parts);
  while (ordered.length && layout.used + cost > limit) {
    // Drop the lowest-ranked kept line (and its heading when it was the group's last).
    const drop = [...kept].reduce((worst, n) => (candidates.indexOf(n) > candidates.indexOf(worst) ? n : worst));
    kept.delete(drop);
    const h = heading[drop];
    if (h >= 0 && ![...kept].some((n) => heading[n] === h)) headed.delete(h);
    ordered.splice(0, ordered.length, ...lines.map((_, n) => n).filter((n) => kept.has(n) || headed.has(n)));
    parts = render(ordered);
    cost = layout.cost('index', parts);
  }
  if (kept.size === 0) return wholeCost;
  layout.add({ section: 'index', key: renderer.sectionKey('index'), parts, cost, lines: ordered.map((n) => lines[n]) });
  return wholeCost - cost;
}

/** A run of a file's passages, `from` to `to` (indexes into Retrieval.pieces), and its piece's cost. */
interface Span {
  from: number;
  to: number;
  cost: number;
}

/** What the selection holds of one file: the whole file, or runs of its passages. */
interface Holding {
  whole: boolean;
  spans: Span[];
  /** Its matched passages already given (indexes into its pieces). */
  taken: Set<number>;
  /** When its first piece was picked. */
  order: number;
}

/** One way to spend tokens on a file: the whole file, or a run of passages (merging the runs it touches). */
interface Offer {
  file: number;
  span?: Span;
  /** The runs the new one replaces. */
  replaces: Span[];
  /** Expected evidence it adds: the value of the matched passages it brings that are not in yet. */
  value: number;
  /** Tokens it adds (its section's opener and closer aside). */
  cost: number;
  /** Set when `cost` is only an upper bound (a whole note's bytes): counted when it is picked (settle). */
  bound?: true;
  /** Token limits the whole file must not be over that its bounds could not decide: counted when it is picked. */
  limits?: number[];
  terms: readonly number[];
}

/** What one task selection knows and holds. */
interface Selection {
  input: PackInput;
  renderer: Renderer;
  layout: Layout;
  text: (i: number) => string;
  /** The text, its count not asked (plainText). */
  plain: (i: number) => string;
  tokens: FileTokens;
  retrieval: Retrieval;
  /** Each candidate file's matched passages by their index, with their value. */
  matchedOf: Map<number, Matched>;
  holdings: Map<number, Holding>;
  /** Per file: its matched passages' values and what its unmatched text may hold (UNMATCHED). */
  mass: Map<number, number>;
  /** Texts of matched passages given: an identical passage of another file adds nothing. */
  seen: Set<string>;
  /** Tokens left for the task's pieces. */
  left: number;
  /** Sections the selection opened (their frame is paid once). */
  opened: Set<SectionId>;
  lines: Map<number, string[]>;
  fullCost: Map<number, number>;
  /** A whole file's piece in UTF-8 bytes: at least its tokens (each token is a byte or more). */
  fullBytes: Map<number, number>;
  /** Whether a file is a transcript (isDialogue of its pieces), once asked. */
  dialogue: Map<number, boolean>;
  /** What a text adds to a full piece (renderer.fullTextBytes), with the id its answers are kept by. */
  measure: { id: string; of(text: string): number };
}

/** Whether a file is a transcript (isDialogue), found once per selection: offers ask it again at every pick. */
function dialogueOf(sel: Selection, file: number): boolean {
  let dialogue = sel.dialogue.get(file);
  if (dialogue === undefined) sel.dialogue.set(file, (dialogue = isDialogue(sel.retrieval.pieces.get(file) ?? [])));
  return dialogue;
}

/** The lines of a run of passages as a piece (its text is the file's lines, blank ones included). */
function spanPiece(sel: Selection, file: number, from: number, to: number): { start: number; end: number; text: string } {
  const pieces = sel.retrieval.pieces.get(file)!;
  if (from === to) return pieces[from];
  const start = pieces[from].start;
  const end = pieces[to].end;
  let lines = sel.lines.get(file);
  if (!lines) sel.lines.set(file, (lines = sel.plain(file).split('\n')));
  return { start, end, text: lines.slice(start - 1, end).join('\n') };
}

/** The tokens a section's opener and closer take when this selection is the first to use it. */
function frameCost(sel: Selection, section: SectionId): number {
  if (sel.opened.has(section) || !sel.layout.isFirst(section)) return 0;
  return sel.input.count(sel.renderer.open(section)) + sel.input.count(sel.renderer.close(section));
}

function spanCost(sel: Selection, file: number, from: number, to: number): number {
  const parts = sel.renderer.passage(sel.input.files[file], spanPiece(sel, file, from, to), false, sel.input.memctx);
  return countJoined(parts, sel.input.count);
}

/** The run a matched passage brings: with its neighbours when it is a dialogue turn or a list item. */
function around(sel: Selection, file: number, index: number): { from: number; to: number } {
  const pieces = sel.retrieval.pieces.get(file)!;
  let from = index;
  let to = index;
  if (!isTurnOrItem(pieces[index].text)) return { from, to };
  while (from > 0 && index - from < NEIGHBOURS && joinable(pieces, from - 1)) from--;
  while (to < pieces.length - 1 && to - index < NEIGHBOURS && joinable(pieces, to)) to++;
  return { from, to };
}

/** Whether passages k and k + 1 sit on lines of their own, so a run holding both is the file's lines between them (not when one long line was cut). */
function joinable(pieces: readonly { start: number; end: number }[], k: number): boolean {
  return pieces[k].end < pieces[k + 1].start;
}

/** A file's matched passages' values, and UNMATCHED for what the rest of it may hold. */
function massOf(sel: Selection, file: number): number {
  let mass = sel.mass.get(file);
  if (mass === undefined) {
    mass = dialogueOf(sel, file) ? UNMATCHED : NOTE_UNMATCHED;
    for (const m of sel.matchedOf.get(file)?.values() ?? []) mass += m.value;
    sel.mass.set(file, mass);
  }
  return mass;
}

/** Value and terms of the matched passages in from..to not given yet. */
function gain(sel: Selection, file: number, from: number, to: number): { value: number; terms: number[] } {
  const holding = sel.holdings.get(file);
  let value = 0;
  const terms = new Set<number>();
  for (const [k, m] of sel.matchedOf.get(file) ?? []) {
    if (k < from || k > to || holding?.taken.has(k) || repeated(sel, m, holding)) continue;
    value += m.value;
    for (const t of m.passage.terms) terms.add(t);
  }
  return { value: (sel.input.scores[file].task * value) / massOf(sel, file), terms: [...terms] };
}

/** Whether a matched passage adds nothing: another file gave the same text, or (a near turn) the same best turn it is near. */
function repeated(sel: Selection, m: { passage: ScoredPassage; near?: ScoredPassage }, holding: Holding | undefined): boolean {
  if (!m.near) return sel.seen.has(m.passage.text);
  return sel.seen.has(m.near.text) && !holding?.taken.has(m.near.index);
}

/** The offer of a run around one matched passage, merged with the runs it overlaps or touches. */
function spanOffer(sel: Selection, file: number, index: number): Offer | undefined {
  const spans = sel.holdings.get(file)?.spans ?? [];
  let { from, to } = around(sel, file, index);
  const pieces = sel.retrieval.pieces.get(file)!;
  const touches = (s: Span) => (s.to >= from && s.from <= to) || (s.to + 1 === from && joinable(pieces, s.to)) || (to + 1 === s.from && joinable(pieces, to));
  const replaces = spans.filter(touches);
  for (const s of replaces) {
    from = Math.min(from, s.from);
    to = Math.max(to, s.to);
  }
  const { value, terms } = gain(sel, file, from, to);
  if (value <= 0) return undefined;
  const cost = spanCost(sel, file, from, to);
  const added = cost - replaces.reduce((n, s) => n + s.cost, 0);
  return { file, span: { from, to, cost }, replaces, value, cost: Math.max(1, added), terms };
}

/** The whole file's offer: what its passages not given yet are worth (at least its own match before any), for its tokens less its runs'. */
function wholeOffer(sel: Selection, file: number): Offer | undefined {
  const holding = sel.holdings.get(file);
  const spans = holding?.spans ?? [];
  let held = 0;
  for (const s of spans) held += s.cost;
  const note = !dialogueOf(sel, file);
  const given = givenValue(sel, file, holding);
  if (given === undefined) return undefined;
  const limits = openLimits(sel, file, note, sel.left + held);
  if (limits === false) return undefined;
  const value = wholeValue(sel, file, given);
  if (value <= 0) return undefined;
  const exact = sel.fullCost.get(file);
  const cost = exact ?? (note ? fullBytes(sel, file) : fullCost(sel, file));
  const offer: Offer = { file, replaces: spans, value, cost: Math.max(1, cost - held), terms: sel.retrieval.fileTerms[file] ?? [] };
  if (exact === undefined && note) offer.bound = true;
  if (limits) offer.limits = limits;
  return offer;
}

/** What a whole file adds when its passages given are worth `given`. */
function wholeValue(sel: Selection, file: number, given: number): number {
  const mass = massOf(sel, file);
  return (sel.input.scores[file].task * (mass - given)) / mass;
}

/**
 * What a file's passages already given are worth; undefined when it repeats a passage another file
 * gave (it goes in by its other passages instead). Plain loops: this runs for every candidate at every pick.
 */
function givenValue(sel: Selection, file: number, holding: Holding | undefined): number | undefined {
  let given = 0;
  for (const m of sel.matchedOf.get(file)?.values() ?? []) {
    if (holding?.taken.has(m.passage.index)) given += m.value;
    else if (!m.near && sel.seen.has(m.passage.text)) return undefined;
  }
  return given;
}

/**
 * The token limits a whole file must be within, `room` and after the first whole note its share of it
 * (its task score, at least FILE_SHARE): false when it is over one, else those only its count can
 * decide (a note's, left open until it is picked: settle; a transcript ranks by its cost, so its count decides now).
 */
function openLimits(sel: Selection, file: number, note: boolean, room: number): number[] | undefined | false {
  const { tokens } = sel;
  const limits = note && sel.opened.has('full') ? [room, Math.floor(room * Math.max(FILE_SHARE, sel.input.scores[file].task))] : [room];
  let open: number[] | undefined;
  for (const limit of limits) {
    const over = note ? tokens.overKnown(file, limit) : tokens.over(file, limit);
    if (over === undefined) (open ??= []).push(limit);
    else if (over) return false;
  }
  return open;
}

/** The exact tokens of a whole file's piece (counted once). */
function fullCost(sel: Selection, file: number): number {
  let cost = sel.fullCost.get(file);
  if (cost === undefined) {
    cost = countJoined(sel.renderer.full(sel.input.files[file], sel.input.scores[file], sel.text(file), false), sel.input.count);
    sel.fullCost.set(file, cost);
  }
  return cost;
}

/** A whole file's piece in UTF-8 bytes, without counting its tokens. */
function fullBytes(sel: Selection, file: number): number {
  let bytes = sel.fullBytes.get(file);
  if (bytes === undefined) {
    const { input, renderer } = sel;
    // The piece of an empty text, and what the file's text adds to it (renderer.fullTextBytes): a cache may answer that without reading it.
    const frame = renderer.full(input.files[file], input.scores[file], '', false).reduce((n, part) => n + Buffer.byteLength(part, 'utf8'), 0);
    bytes = frame + (input.fullTextBytes ? input.fullTextBytes(file, sel.measure) : renderer.fullTextBytes(sel.plain(file)));
    sel.fullBytes.set(file, bytes);
  }
  return bytes;
}

/** Whether an offer may fit the room left with its section's frame (one whose count is open may: settle tells). */
const mayFit = (sel: Selection, offer: Offer, frame: number) => offer.bound !== undefined || offer.limits !== undefined || offer.cost + frame <= sel.left;

/** Count what an offer left open: false when its file is over a limit or its exact cost does not fit; else its cost is exact. */
function settle(sel: Selection, offer: Offer, frame: number): boolean {
  if (offer.limits?.some((limit) => sel.tokens.over(offer.file, limit))) return false;
  delete offer.limits;
  if (offer.bound) {
    const held = offer.replaces.reduce((n, s) => n + s.cost, 0);
    offer.cost = Math.max(1, fullCost(sel, offer.file) - held);
    delete offer.bound;
  }
  return offer.cost + frame <= sel.left;
}

/**
 * The best offer that fits (bestPick over those that do), settling open offers only as they come up
 * best: one that proves not to fit leaves the choice, which is then made again.
 */
function pickFitting(sel: Selection, offers: Offer[], frames: Record<'passages' | 'full', number>, covered: Uint8Array, total: number, fixed: FixedWholes): Offer | undefined {
  const { retrieval } = sel;
  const frame = (o: Offer) => frames[o.span ? 'passages' : 'full'];
  const rate = (o: Offer) => o.value / o.cost ** (dialogueOf(sel, o.file) ? DENSITY_POWER : NOTE_POWER);
  const left = offers.filter((o) => mayFit(sel, o, frame(o)));
  for (;;) {
    const k = left.length ? bestPick(left, rate, (o) => o.terms, covered, retrieval.weights, total) : -1;
    const other = bestFixed(sel, fixed, frames.full, covered, total);
    const fromFixed = other !== undefined && (k < 0 || fixedFirst(fixed, other, left[k], pickValue(rate(left[k]), left[k].terms, covered, retrieval.weights, total)));
    const offer = fromFixed ? other.offer : left[k];
    if (!offer) return undefined;
    if ((offer.bound === undefined && offer.limits === undefined) || settle(sel, offer, frame(offer))) return offer;
    if (fromFixed) fixed.out.add(offer.file);
    else left.splice(k, 1);
  }
}

/** Whether the best fixed offer goes before `offer` (worth `value`): worth more, or as much and earlier among the offers (wholes in candidate order, then runs). */
function fixedFirst(fixed: FixedWholes, best: FixedPick, offer: Offer, value: number): boolean {
  if (best.value !== value) return best.value > value;
  return offer.span !== undefined || best.at < fixed.at.get(offer.file)!;
}

/**
 * Candidate notes whose whole offer stays the same from pick to pick until taken: no matched passage,
 * not a transcript (so their worth is their task value raised by their terms' coverage, whatever their
 * cost). They are kept in groups of the same terms, each by value then candidate order, so a pick looks
 * at the head of each group instead of offering every candidate afresh (which grows with candidates × picks).
 */
interface FixedWholes {
  /** `from`: the first member not out yet. */
  groups: { terms: readonly number[]; files: { file: number; value: number; at: number }[]; from: number }[];
  has: Set<number>;
  /** Each candidate's place in candidate order (the first of equal offers wins). */
  at: Map<number, number>;
  /**
   * Files over a limit or whose cost does not fit (or worth nothing): out for good, as the room only
   * shrinks (by at least the frame whenever the frame falls to 0) and the limits with it.
   */
  out: Set<number>;
}

interface FixedPick {
  offer: Offer;
  value: number;
  at: number;
}

function fixedWholes(sel: Selection, candidates: ReadonlySet<number>): FixedWholes {
  const byTerms = new Map<string, FixedWholes['groups'][number]>();
  const fixed: FixedWholes = { groups: [], has: new Set(), at: new Map(), out: new Set() };
  for (const file of candidates) {
    const at = fixed.at.size;
    fixed.at.set(file, at);
    if (sel.matchedOf.has(file) || dialogueOf(sel, file)) continue;
    const terms = sel.retrieval.fileTerms[file] ?? [];
    const key = terms.join(' ');
    let group = byTerms.get(key);
    if (!group) byTerms.set(key, (group = { terms, files: [], from: 0 }));
    group.files.push({ file, value: wholeValue(sel, file, 0), at });
    fixed.has.add(file);
  }
  fixed.groups = [...byTerms.values()];
  for (const g of fixed.groups) g.files.sort((a, b) => b.value - a.value || a.at - b.at);
  return fixed;
}

/** The best fitting fixed offer (as bestPick would choose among them). */
function bestFixed(sel: Selection, fixed: FixedWholes, frame: number, covered: Uint8Array, total: number): FixedPick | undefined {
  let best: FixedPick | undefined;
  for (const group of fixed.groups) {
    const found = groupBest(sel, fixed, group, frame, covered, total);
    if (found && (!best || found.value > best.value || (found.value === best.value && found.at < best.at))) best = found;
  }
  return best;
}

/** A group's best fitting offer: its members' worth falls in list order, so the walk stops below the best found. */
function groupBest(sel: Selection, fixed: FixedWholes, group: FixedWholes['groups'][number], frame: number, covered: Uint8Array, total: number): FixedPick | undefined {
  let best: FixedPick | undefined;
  const { files } = group;
  for (let k = group.from; k < files.length; k++) {
    const f = files[k];
    const value = pickValue(f.value, group.terms, covered, sel.retrieval.weights, total);
    if (best && value < best.value) break;
    if (fixed.out.has(f.file) || (best && f.at > best.at)) continue;
    const offer = sel.holdings.get(f.file)?.whole ? undefined : wholeOffer(sel, f.file);
    if (offer && mayFit(sel, offer, frame)) best = { offer, value, at: f.at };
    else fixed.out.add(f.file);
  }
  while (group.from < files.length && fixed.out.has(files[group.from].file)) group.from++;
  return best;
}

/** The runs a file offers: one around each matched passage not given yet. */
function spanOffers(sel: Selection, file: number): Offer[] {
  const holding = sel.holdings.get(file);
  if (holding?.whole) return [];
  const out: Offer[] = [];
  for (const k of sel.matchedOf.get(file)?.keys() ?? []) {
    if (holding?.taken.has(k)) continue;
    const offer = spanOffer(sel, file, k);
    if (offer) out.push(offer);
  }
  return out;
}

/** Take an offer: the file whole, or the new run in place of those it merges. */
function accept(sel: Selection, offer: Offer, picks: number): void {
  const { file } = offer;
  let holding = sel.holdings.get(file);
  if (!holding) sel.holdings.set(file, (holding = { whole: false, spans: [], taken: new Set(), order: picks }));
  const from = offer.span?.from ?? 0;
  const to = offer.span?.to ?? Number.POSITIVE_INFINITY;
  for (const [k, m] of sel.matchedOf.get(file) ?? []) {
    if (k < from || k > to) continue;
    holding.taken.add(k);
    if (!m.near) sel.seen.add(m.passage.text);
  }
  holding.spans = holding.spans.filter((s) => !offer.replaces.includes(s));
  if (offer.span) {
    holding.spans.push(offer.span);
    holding.spans.sort((a, b) => a.from - b.from);
    sel.opened.add('passages');
  } else {
    holding.whole = true;
    sel.opened.add('full');
  }
  sel.left -= offer.cost;
}

/**
 * The candidate files' matched passages (the best MAX_UNITS of them), each valued by its match and its
 * file's; in a transcript, the turns near its best-matching turn too (`near`: that turn, which values them).
 */
type Matched = Map<number, { passage: ScoredPassage; value: number; near?: ScoredPassage }>;

function matchedPassages(input: PackInput, candidates: ReadonlySet<number>): Map<number, Matched> {
  const out = new Map<number, Matched>();
  let n = 0;
  for (const p of input.retrieval!.passages) {
    if (!candidates.has(p.file)) continue;
    if (n++ === MAX_UNITS) break;
    const value = p.score * (PASSAGE_OWN + (1 - PASSAGE_OWN) * input.scores[p.file].task);
    let byIndex = out.get(p.file);
    if (!byIndex) out.set(p.file, (byIndex = new Map() as Matched));
    byIndex.set(p.index, { passage: p, value });
  }
  for (const [file, byIndex] of out) addNearTurns(input.retrieval!.pieces.get(file) ?? [], file, byIndex);
  return out;
}

/**
 * A transcript's turns within NEAR_TURNS of its best-matching turn that match nothing themselves get
 * that turn's value times NEAR_DECAY per turn away: the answer or the follow-up next to the question's
 * best match often shares none of its words, so a session that matches gives its best turn with
 * what surrounds it rather than scattered single turns.
 */
function addNearTurns(pieces: readonly Passage[], file: number, byIndex: Matched): void {
  if (!isDialogue(pieces)) return;
  let best: { passage: ScoredPassage; value: number } | undefined;
  for (const m of byIndex.values()) if (!best || m.value > best.value) best = m;
  if (!best) return;
  const at = best.passage.index;
  for (let k = Math.max(0, at - NEAR_TURNS); k <= Math.min(pieces.length - 1, at + NEAR_TURNS); k++) {
    if (byIndex.has(k) || !isTurnOrItem(pieces[k].text)) continue;
    byIndex.set(k, { passage: { ...pieces[k], file, score: 0, terms: [], index: k }, value: best.value * NEAR_DECAY ** Math.abs(k - at), near: best.passage });
  }
}

/**
 * Files and passages the task matches, in one selection under the room left, by expected evidence
 * per token: each pick is the offer — a whole file, or a run of passages with their neighbouring
 * turns or items — whose value (its matched passages not in yet, and in a transcript the turns near
 * its best-matching turn: addNearTurns; raised by the query weight it
 * covers that earlier picks did not) per token it adds is highest. A run that touches another of
 * its file merges with it, and a file whose runs are in can still be taken whole for what it adds.
 * Identical passages go in once. Then the pieces are placed, each file in the order it was first picked.
 */
function placeByTask(placing: Placing, order: readonly number[]): void {
  const { input, renderer, layout, text, tokens, room, placed } = placing;
  const retrieval = input.retrieval!;
  const candidates = new Set(order.filter((i) => matched(input.scores[i]) && !placed.has(i)));
  const plain = input.plainText ?? text;
  const sel: Selection = { input, renderer, layout, text, plain, tokens, retrieval, matchedOf: matchedPassages(input, candidates), holdings: new Map(), mass: new Map(), seen: new Set(), left: room - layout.used, opened: new Set(), lines: new Map(), fullCost: new Map(), fullBytes: new Map(), dialogue: new Map(), measure: { id: `bytes:${input.format}`, of: renderer.fullTextBytes } };
  const covered = new Uint8Array(retrieval.terms.length);
  const total = retrieval.weights.reduce((a, b) => a + b, 0);
  const spans = new Map<number, Offer[]>([...candidates].map((i) => [i, spanOffers(sel, i)]));
  const fixed = fixedWholes(sel, candidates);
  const others = [...candidates].filter((i) => !fixed.has.has(i));
  for (let picks = 0; ; picks++) {
    // Whole files are offered afresh each time: what they add depends on the room left and on what is in.
    const wholes = others.flatMap((i) => (sel.holdings.get(i)?.whole ? [] : (wholeOffer(sel, i) ?? [])));
    const frames = { passages: frameCost(sel, 'passages'), full: frameCost(sel, 'full') };
    const offer = pickFitting(sel, [...wholes, ...[...spans.values()].flat()], frames, covered, total, fixed);
    if (!offer) break;
    // A run whose passages another file gave meanwhile (identical text) is weighed again first.
    if (offer.span && gain(sel, offer.file, offer.span.from, offer.span.to).value !== offer.value) {
      spans.set(offer.file, spanOffers(sel, offer.file));
      continue;
    }
    sel.left -= frames[offer.span ? 'passages' : 'full'];
    accept(sel, offer, picks);
    for (const t of offer.terms) covered[t] = 1;
    spans.set(offer.file, spanOffers(sel, offer.file));
  }
  placeHoldings(placing, sel);
}

const TRANSCRIPT_NOTE = 'its best-matching turns with their neighbours: more of what the task asks per token than the whole file';

/** The selection's pieces into the layout: each file in the order first picked, its runs in line order. */
function placeHoldings(placing: Placing, sel: Selection): void {
  const { input, renderer, layout, room, placed, notes, tryFull } = placing;
  const files = [...sel.holdings.entries()].sort((a, b) => a[1].order - b[1].order);
  for (const [i, holding] of files) {
    if (holding.whole && tryFull(i)) continue;
    for (const span of holding.spans) {
      const parts = renderer.passage(input.files[i], spanPiece(sel, i, span.from, span.to), layout.isFirst('passages'), input.memctx);
      const cost = layout.cost('passages', parts);
      if (layout.used + cost > room) continue;
      layout.add({ section: 'passages', key: renderer.sectionKey('passages'), parts, cost, file: i });
      placed.add(i);
      notes[i] = dialogueOf(sel, i) ? TRANSCRIPT_NOTE : 'larger than its share of the budget: its best-matching passages';
    }
  }
}

/** Files that should have had a place (full, head or description) and have none. */
function leftOutOf(input: PackInput, layout: Layout, wanted: readonly number[]): LeftOut {
  const placed = placedFiles(input, layout);
  let files = 0;
  for (const i of wanted) files += placed[i] ^ 1;
  const lines = layout.entries.reduce((n, e) => n + (e.lines?.length ?? 0), 0);
  return { files, indexLines: input.indexLines.length - lines };
}

/** Per file, 1 when the layout holds a piece of it. */
function placedFiles(input: PackInput, layout: Layout): Uint8Array {
  const placed = new Uint8Array(input.files.length);
  for (const e of layout.entries) if (e.file !== undefined) placed[e.file] = 1;
  return placed;
}

/** The paths of the files leftOutOf counts. */
function leftOutPaths(input: PackInput, layout: Layout, wanted: readonly number[]): string[] {
  const placed = placedFiles(input, layout);
  const paths: string[] = [];
  for (const i of wanted) if (!placed[i]) paths.push(input.files[i].path);
  return paths;
}

/** Pack files into a bundle whose exact token count is at most the budget. */
export function packBundle(input: PackInput): PackResult {
  return packBundleParts(input).result;
}

/** The layout and its "left out" note: with room kept for the note; without it only when that could fit everything. */
function planBundle(input: PackInput, renderer: Renderer, text: (i: number) => string, tokens: FileTokens, wanted: number[], ranked: readonly number[]): { plan: Plan; left: LeftOut; footer: string } {
  const { budget, count } = input;
  const reserve = count(renderer.leftOut({ files: wanted.length, indexLines: input.indexLines.length }, budget, input.memctx));
  const full = fullOrder(input, ranked);
  let index: IndexOrder | undefined;
  let whole: { parts: string[]; cost: number } | undefined;
  const orders: Orders = { ranked, full, index: () => (index ??= indexOrder(input, ranked, full.order)), wholeIndex: () => (whole ??= wholeIndex(input, renderer)) };
  let plan = layoutBundle(input, renderer, text, tokens, reserve, orders);
  let left = leftOutOf(input, plan.layout, wanted);
  if (left.files + left.indexLines > 0 && plan.missed <= reserve) {
    const open = layoutBundle(input, renderer, text, tokens, 0, orders);
    const openLeft = leftOutOf(input, open.layout, wanted);
    if (openLeft.files + openLeft.indexLines === 0) {
      plan = open;
      left = openLeft;
    }
  }
  let footer = '';
  if (left.files + left.indexLines > 0) {
    footer = renderer.leftOut(left, budget, input.memctx);
    // The note's real text may count differently from the reserved one: drop the last pieces until it fits.
    while (footer !== '' && plan.layout.used + count(footer) > budget) {
      if (!plan.layout.pop()) {
        footer = '';
        break;
      }
      left = leftOutOf(input, plan.layout, wanted);
      footer = renderer.leftOut(left, budget, input.memctx);
    }
  }
  return { plan, left, footer };
}

/** Each placed file's tier and the tokens its pieces take. */
function tiersOf(layout: Layout): Map<number, { tier: Tier; cost: number }> {
  const tierOf = new Map<number, { tier: Tier; cost: number }>();
  for (const e of layout.entries) {
    if (e.file === undefined) continue;
    const tier: Tier = e.section === 'full' ? (e.head ? 'head' : 'full') : e.section === 'passages' ? 'passages' : 'description';
    tierOf.set(e.file, { tier, cost: (tierOf.get(e.file)?.cost ?? 0) + e.cost });
  }
  return tierOf;
}

/**
 * packBundle, with the bundle's text also in parts: written part by part, a bundle whose framing is
 * not Latin-1 is not first flattened into one two-byte string. `result.text` is joined on first read.
 */
export function packBundleParts(input: PackInput): { result: PackResult; parts: readonly string[] } {
  const renderer = RENDERERS[input.format];
  const { budget, count } = input;
  const text = input.text ?? ((i: number) => fileText(input.files[i] as MemoryFile));
  const given = input.tokens ?? input.files.map((_, i) => count(text(i)));
  const tokens = Array.isArray(given) ? knownTokens(given) : (given as FileTokens);
  const focus = new Set(input.focus ?? []);
  const wanted = input.files.flatMap((_, i) => (reached(input.scores[i], focus, Boolean(input.taskOnly)) ? [i] : []));

  // Every file in rank order, sorted once: the orders below are taken from it.
  const ranked = rankOrder(input.scores);
  const { plan, left, footer } = planBundle(input, renderer, text, tokens, wanted, ranked);
  const { layout, notes } = plan;
  const empty = layout.fixed > budget;
  const parts = empty ? [] : assemble(renderer, input, layout, footer);
  let joined: string | undefined;
  // The bundle's exact count from its parts (each file's text counted once): the blank lines between sections may join into fewer tokens, and countJoined counts those joins again.
  const total = countJoined(parts, count);

  const tierOf = tiersOf(layout);
  const listed = linkedPaths(empty ? '' : layout.entries.flatMap((e) => e.lines ?? []).join('\n'));
  const sizes = input.files.map((_, i) => tokens.report(i));
  // In rank order (the report lists the files best first).
  const files: PackedFile[] = ranked.map((i) => {
    const file = input.files[i];
    const placed = tierOf.get(i);
    const inIndex = listed.has(file.path);
    const tier: Tier = placed?.tier ?? (inIndex ? 'index' : 'none');
    const score = input.scores[i];
    let note = tier === 'full' ? undefined : notes[i] ?? (tier === 'none' ? 'did not fit the budget' : undefined);
    if (score.superseded && tier !== 'full') note = `${score.superseded}: never packed in full`;
    // Object.assign, not a spread: the same keys in the same order, many times faster over thousands of files.
    const row = Object.assign({}, score, { name: file.name, planned: scoreLabel(score), tier, tokens: sizes[i].tokens }) as PackedFile;
    if (sizes[i].estimated) row.estimated = true;
    row.bundleTokens = placed?.cost ?? 0;
    if (note) row.note = note;
    return row;
  });
  const totalFileTokens = sizes.reduce((a, b) => a + b.tokens, 0);
  const includedLines = layout.entries.reduce((n, e) => n + (e.lines?.length ?? 0), 0);
  const fullTokens = layout.entries.reduce((n, e) => n + (e.section === 'full' || e.section === 'passages' ? e.cost : 0), 0);
  const result: PackResult = {
    get text() {
      return (joined ??= parts.join(''));
    },
    tokens: total,
    budget,
    format: input.format,
    encoding: input.encoding,
    fullTokens: empty ? 0 : fullTokens,
    indexLines: { total: input.indexLines.length, included: empty ? 0 : includedLines },
    files,
    leftOut: { files: empty ? wanted.map((i) => input.files[i].path) : leftOutPaths(input, layout, wanted), indexLines: empty ? input.indexLines.length : left.indexLines },
    pinnedLeftOut: input.files.flatMap((f, i) => (f.pinned && tierOf.get(i)?.tier !== 'full' ? [f.path] : [])),
    totalFileTokens,
    saved: totalFileTokens - total,
    ...(sizes.some((s) => s.estimated) ? { estimated: true as const } : {}),
  };
  return { result, parts };
}

/** The bundle's text, in parts. */
function assemble(renderer: Renderer, input: PackInput, layout: Layout, footer: string): string[] {
  const out = [renderer.header({ budget: input.budget, encoding: input.encoding })];
  let openKey: string | undefined;
  let openSection: SectionId | undefined;
  const rank: Record<SectionId, number> = { index: 0, full: 1, passages: 2, description: 3 };
  const entries = layout.entries.map((e, n) => ({ e, n })).sort((a, b) => rank[a.e.section] - rank[b.e.section] || a.n - b.n).map((x) => x.e);
  for (const entry of entries) {
    if (entry.key !== openKey) {
      if (openSection) out.push(renderer.close(openSection));
      out.push(renderer.open(entry.section));
      openKey = entry.key;
    }
    openSection = entry.section;
    out.push(...entry.parts);
  }
  if (openSection) out.push(renderer.close(openSection));
  out.push(footer, renderer.trailer());
  return out;
}
