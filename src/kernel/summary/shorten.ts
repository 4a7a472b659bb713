/**
 * Deterministic shortening that keeps every item as long as it can: first group the fields that
 * group (Changed Files by folder, with counts), then shorten long items (down to a floor; whole
 * statements such as Decisions are not cut), and only then take list items off the end of fields
 * (in the template's cut order: the first items, such as Progress' end state, stay), then lines off
 * long items, then characters off long lines, until the file fits. Each step finds the most it can
 * keep by binary search over exact token counts.
 */
import { emptyValues, type FieldValues } from './fields.js';

/** Lines are never cut shorter than this many characters. */
const MIN_LINE_CHARS = 40;
/** A grouped field that cannot fit alone is grouped down to this many lines (other cuts do the rest). */
const GROUPED_LINES = 12;
/** Before any item is dropped, long items are cut to no fewer than this many characters. */
const SOFT_LINE_CHARS = 100;

export interface ShortenOptions {
  /** Fields grouped before anything else is cut: how many levels, and the items at a level (0: as they are; higher: fewer lines). */
  group?: Record<string, { levels: (items: string[]) => number; apply: (items: string[], level: number) => string[] }>;
  /** Fields whose items are whole statements: not cut by characters before items are dropped. */
  whole?: string[];
}

export interface Cut {
  field: string;
  what: 'grouped' | 'items' | 'lines' | 'characters';
  /** Items kept, lines kept per item, or the character cap. */
  kept: number;
  /** Items there were, the longest item's lines, or the lines that were cut. */
  total: number;
}

export interface ShortenResult {
  values: FieldValues;
  tokens: number;
  cuts: Cut[];
  /** False when even the shortest form is over the limit. */
  fits: boolean;
}

type Measure = (values: FieldValues) => number;

function keepItems(items: string[], k: number): string[] {
  if (k >= items.length) return items;
  return [...items.slice(0, k), `[… ${items.length - k} more left out]`];
}

function capLines(items: string[], max: number): string[] {
  return items.map((item) => {
    const lines = item.split('\n');
    if (lines.length <= max) return item;
    return [...lines.slice(0, max), `[… ${lines.length - max} more lines left out]`].join('\n');
  });
}

function cutLine(line: string, max: number): string {
  if (line.length <= max) return line;
  const space = line.lastIndexOf(' ', max);
  const at = space >= max - 20 && space > 0 ? space : max;
  return `${line.slice(0, at).trimEnd()}…`;
}

function capChars(items: string[], max: number): string[] {
  return items.map((item) => item.split('\n').map((line) => cutLine(line, max)).join('\n'));
}

/** Largest n in [lo, hi] with fits(n), assuming fits is monotonic; lo when none fits. */
function largestFitting(lo: number, hi: number, fits: (n: number) => boolean): number {
  if (!fits(lo)) return lo;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Smallest n in [lo, hi] with fits(n), assuming fits is monotonic; hi when none fits. */
function smallestFitting(lo: number, hi: number, fits: (n: number) => boolean): number {
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (fits(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

const longest = (items: string[]) => Math.max(...items.flatMap((i) => i.split('\n').map((l) => l.length)));
const maxLines = (items: string[]) => Math.max(...items.map((i) => i.split('\n').length));
const linesOver = (items: string[], n: number) => items.flatMap((i) => i.split('\n')).filter((l) => l.length > n).length;

/** The shortening under way: the values, their count, the cuts made, and the grouped fields' levels. */
class Shortening {
  values: FieldValues;
  tokens: number;
  readonly cuts: Cut[] = [];
  private readonly level: Record<string, number> = {};
  readonly grouped: Record<string, string[]> = {};

  constructor(input: FieldValues, private readonly order: string[], private readonly measure: Measure, private readonly limit: number, private readonly options: ShortenOptions) {
    this.values = Object.assign(emptyValues(), input);
    this.tokens = measure(this.values);
  }

  get over(): boolean {
    return this.tokens > this.limit;
  }

  private withField(key: string, items: string[]): FieldValues {
    return Object.assign(emptyValues(), this.values, { [key]: items });
  }

  private fitsWith(key: string, items: string[]): boolean {
    return this.measure(this.withField(key, items)) <= this.limit;
  }

  set(key: string, items: string[]): void {
    this.values = this.withField(key, items);
    this.tokens = this.measure(this.values);
  }

  /** Cut each field in order by the most of `apply` that fits. */
  step(what: Cut['what'], span: (items: string[]) => [number, number] | undefined, apply: (items: string[], n: number) => string[], total: (items: string[], n: number) => number, skip?: Set<string>): void {
    for (const key of this.order) {
      if (!this.over) return;
      const items = this.values[key];
      const range = items?.length && !skip?.has(key) ? span(items) : undefined;
      if (!range) continue;
      const n = largestFitting(range[0], range[1], (k) => this.fitsWith(key, apply(items, k)));
      this.set(key, apply(items, n));
      this.cuts.push({ field: key, what, kept: n, total: total(items, n) });
    }
  }

  /** Cut long lines of every field but `skip` to one cap (the largest that fits, not below `floor`): one search for all fields. */
  capAll(floor: number, skip: Set<string>): void {
    const keys = this.order.filter((k) => this.values[k]?.length && !skip.has(k) && !this.grouped[k] && longest(this.values[k]) > floor);
    if (!this.over || !keys.length) return;
    const before = this.values;
    const capped = (n: number) => Object.assign(emptyValues(), before, Object.fromEntries(keys.map((k) => [k, capChars(before[k], n)])));
    const n = largestFitting(floor, Math.max(...keys.map((k) => longest(before[k]))) - 1, (k) => this.measure(capped(k)) <= this.limit);
    this.values = capped(n);
    this.tokens = this.measure(this.values);
    for (const key of keys) {
      const cut = linesOver(before[key], n);
      if (cut) this.cuts.push({ field: key, what: 'characters', kept: n, total: cut });
    }
  }

  /** Group the fields that group: the least grouping that fits, else the least that brings the field to a few lines. */
  group(): void {
    for (const key of this.order) {
      const grouping = this.options.group?.[key];
      const items = this.values[key];
      if (!this.over || !grouping || !items?.length || grouping.levels(items) < 1) continue;
      const levels = grouping.levels(items);
      const fits = (k: number) => this.fitsWith(key, grouping.apply(items, k));
      const n = fits(levels) ? smallestFitting(1, levels, fits) : smallestFitting(1, levels, (k) => grouping.apply(items, k).length <= GROUPED_LINES);
      this.grouped[key] = items;
      this.level[key] = n;
      this.set(key, grouping.apply(items, n));
    }
  }

  /** The values after the first `k` moves (a move drops a field's last item, or groups a grouped field one level further). */
  private after(moves: string[], k: number, start: { values: FieldValues; kept: Record<string, number>; level: Record<string, number> }): FieldValues {
    const kept = { ...start.kept };
    const level = { ...start.level };
    for (const key of moves.slice(0, k)) {
      if (this.grouped[key]) level[key]++;
      else kept[key]--;
    }
    const out: FieldValues = Object.assign(emptyValues(), start.values);
    for (const key of Object.keys(kept)) if (kept[key] < start.values[key].length) out[key] = keepItems(start.values[key], kept[key]);
    for (const key of Object.keys(level)) if (level[key] !== start.level[key]) out[key] = (this.options.group ?? {})[key].apply(this.grouped[key], level[key]);
    return out;
  }

  /** The moves, in order: items off the field with the most, a grouped field grouped further once the others are down to a few. */
  private moves(kept: Record<string, number>, level: Record<string, number>): string[] {
    const k = { ...kept };
    const l = { ...level };
    const out: string[] = [];
    const canGroup = () => this.order.find((key) => this.grouped[key] && l[key] < (this.options.group?.[key]?.levels(this.grouped[key]) ?? 0));
    for (;;) {
      const key = this.order.filter((f) => (k[f] ?? 0) > 1).reduce<string | undefined>((best, f) => (best === undefined || k[f] > k[best] ? f : best), undefined);
      const group = key === undefined || k[key] <= 3 ? canGroup() : undefined;
      if (group !== undefined) {
        l[group]++;
        out.push(group);
      } else if (key !== undefined) {
        k[key]--;
        out.push(key);
      } else return out;
    }
  }

  /**
   * Items off the end of the field with the most (the first in cut order on a tie), one at a time,
   * so no field is cut to its first item while another keeps many. A grouped field is never cut: it
   * is grouped further while other fields lose items. The fewest moves that fit are found by binary
   * search (each try is one count).
   */
  dropItems(): void {
    const kept: Record<string, number> = {};
    for (const key of this.order) if (this.values[key]?.length && !this.grouped[key]) kept[key] = this.values[key].length;
    const start = { values: this.values, kept, level: { ...this.level } };
    const moves = this.moves(kept, this.level);
    if (this.over && moves.length) {
      const fits = (k: number) => this.measure(this.after(moves, k, start)) <= this.limit;
      const n = smallestFitting(1, moves.length, fits);
      this.values = this.after(moves, n, start);
      this.tokens = this.measure(this.values);
      for (const key of moves.slice(0, n)) {
        if (this.grouped[key]) this.level[key]++;
        else kept[key]--;
      }
    }
    for (const key of this.order) if (this.grouped[key]) this.cuts.unshift({ field: key, what: 'grouped', kept: this.values[key].length, total: this.grouped[key].length });
    for (const key of this.order) if (kept[key] !== undefined && kept[key] < start.values[key].length) this.cuts.push({ field: key, what: 'items', kept: kept[key], total: start.values[key].length });
  }
}

/** Shorten values (keyed by field) in `order` until measure(values) <= limit. */
export function shortenToFit(input: FieldValues, order: string[], measure: Measure, limit: number, options: ShortenOptions = {}): ShortenResult {
  const s = new Shortening(input, order, measure, limit, options);
  s.group();
  // long items shortened (never below SOFT_LINE_CHARS, never whole statements) before any is dropped
  s.capAll(SOFT_LINE_CHARS, new Set(options.whole ?? []));
  s.dropItems();
  s.step('lines', (items) => (maxLines(items) > 1 ? [1, maxLines(items) - 1] : undefined), capLines, (items) => maxLines(items));
  s.step('characters', (items) => (longest(items) > MIN_LINE_CHARS ? [MIN_LINE_CHARS, longest(items) - 1] : undefined), capChars, linesOver);
  return { values: s.values, tokens: s.tokens, cuts: s.cuts, fits: s.tokens <= limit };
}

/** A cut as one line for the user, using the field's heading. */
export function describeCut(cut: Cut, heading: string): string {
  if (cut.what === 'grouped') return `${heading}: grouped by folder into ${cut.kept} line${cut.kept === 1 ? '' : 's'} (${cut.total} before)`;
  if (cut.what === 'items') return `${heading}: kept ${cut.kept} of ${cut.total} items`;
  if (cut.what === 'lines') return `${heading}: items cut to their first ${cut.kept} lines (longest had ${cut.total})`;
  return `${heading}: ${cut.total} line${cut.total === 1 ? '' : 's'} cut to ${cut.kept} characters`;
}
