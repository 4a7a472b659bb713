/**
 * Selection under a hard budget (design §5). MEMORY.md's generated block comes first; then files
 * in score order in full (score >= 70, pinned, or picked by the profile) while full content stays
 * within 70% of the budget; then descriptions with the command that loads them (scores 40-69 and
 * full candidates that did not fit); then, when something did not fit, a note saying what. Every
 * piece's cost is its exact token count and the pieces add up exactly (src/tokens/join.ts), so the
 * bundle's count never exceeds the budget.
 */
import type { MemoryFile } from '../store/types.js';
import { countJoined } from '../tokens/join.js';
import { RENDERERS, fileText, type BundleFormat, type LeftOut, type Renderer, type SectionId } from './render.js';
import type { FileScore } from './score.js';
import type { PackFile } from './types.js';

export const FULL_SCORE = 70;
export const DESCRIPTION_SCORE = 40;
export const FULL_SHARE = 0.7;
/** Descriptions tried in vain before the rest are skipped when even the cheapest seen cannot fit. */
const GIVE_UP_AFTER = 20;

export type Tier = 'full' | 'description' | 'index' | 'none';

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
  /** Only files the task or --focus reaches get a description (handoff-specialist). */
  taskOnly?: boolean;
  /** Exact token count (cached). */
  count: (text: string) => number;
  /** Each file's text (`fileText`); by default from the file itself, which must then be a MemoryFile. */
  text?: (i: number) => string;
  /** Each file's token count, when the caller already has it. */
  tokens?: readonly number[];
  /** The command prefix for load hints: `memctx`, or with the --dir/--claude the bundle was built with. */
  memctx?: string;
}

export interface PackedFile extends FileScore {
  name: string;
  /** The tier the score asks for. */
  planned: Exclude<Tier, 'none'>;
  /** What the bundle holds for the file. */
  tier: Tier;
  /** Tokens of the whole file. */
  tokens: number;
  /** Tokens its full text or description takes in the bundle. */
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
  /** Tokens of the full-text files, and their 70% cap. */
  fullTokens: number;
  fullLimit: number;
  indexLines: { total: number; included: number };
  /** Files by score, best first. */
  files: PackedFile[];
  leftOut: { files: string[]; indexLines: number };
  /** Tokens of every file loaded in full, and what the bundle saves against that. */
  totalFileTokens: number;
  saved: number;
}

interface Entry {
  section: SectionId;
  key: string;
  parts: string[];
  cost: number;
  /** File index for full/description entries. */
  file?: number;
  /** The index lines an index entry holds. */
  lines?: readonly string[];
}

interface Candidate {
  i: number;
  file: PackFile;
  score: FileScore;
}

const byScore = (a: Candidate, b: Candidate) => b.score.score - a.score.score || (a.file.path < b.file.path ? -1 : a.file.path > b.file.path ? 1 : 0);

function plannedTier(file: PackFile, score: FileScore, picked: boolean, taskOnly: boolean): PackedFile['planned'] {
  if (file.pinned || picked || score.score >= FULL_SCORE) return 'full';
  if (score.score >= DESCRIPTION_SCORE && (!taskOnly || score.task > 0 || score.dependency > 0)) return 'description';
  return 'index';
}

/** Full candidates in load order: pinned, then profile picks, then by score. */
function fullOrder(candidates: Candidate[], picks: readonly string[]): Candidate[] {
  const pickRank = new Map(picks.map((p, i) => [p, i]));
  const group = (c: Candidate) => (c.file.pinned ? 0 : pickRank.has(c.file.path) ? 1 : 2);
  return [...candidates].sort((a, b) => group(a) - group(b) || (group(a) === 1 ? pickRank.get(a.file.path)! - pickRank.get(b.file.path)! : 0) || byScore(a, b));
}

class Layout {
  used = 0;
  fullUsed = 0;
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
    if (entry.section === 'full') this.fullUsed += entry.cost;
  }

  pop(): Entry | undefined {
    const entry = this.entries.pop();
    if (!entry) return undefined;
    this.sizes.set(entry.key, this.sizes.get(entry.key)! - 1);
    this.used -= entry.cost;
    if (entry.section === 'full') this.fullUsed -= entry.cost;
    return entry;
  }
}

interface Plan {
  layout: Layout;
  notes: Map<number, string>;
  /** Roughly what the pieces that did not fit would have cost. */
  missed: number;
}

function layoutBundle(input: PackInput, renderer: Renderer, text: (i: number) => string, tokens: readonly number[], reserve: number): Plan {
  const { budget, count } = input;
  const fixed = count(renderer.header({ budget, encoding: input.encoding })) + count(renderer.trailer());
  const layout = new Layout(renderer, count, fixed);
  const notes = new Map<number, string>();
  let missed = 0;
  if (fixed > budget) return { layout, notes, missed: Number.POSITIVE_INFINITY };
  const room = budget - reserve;
  const fits = (cost: number) => layout.used + cost <= room;

  // 1. The index: whole when it fits, else line by line until one does not fit.
  const lineParts = input.indexLines.map((line, n) => renderer.indexLine(line, n === 0));
  if (lineParts.length > 0) {
    const whole = [renderer.open('index'), ...lineParts.flat(), renderer.close('index')].join('');
    const wholeCost = count(whole);
    if (fits(wholeCost)) {
      layout.add({ section: 'index', key: renderer.sectionKey('index'), parts: lineParts.flat(), cost: wholeCost, lines: input.indexLines });
    } else {
      const before = layout.used;
      for (let n = 0; n < input.indexLines.length; n++) {
        const parts = renderer.indexLine(input.indexLines[n], layout.isFirst('index'));
        const cost = layout.cost('index', parts);
        if (!fits(cost)) break;
        layout.add({ section: 'index', key: renderer.sectionKey('index'), parts, cost, lines: [input.indexLines[n]] });
      }
      missed += wholeCost - (layout.used - before);
    }
  }

  // 2. Full text, within 70% of the budget.
  const picks = new Set(input.picks ?? []);
  const candidates = input.files.map((file, i) => ({ i, file, score: input.scores[i] }));
  const planned = candidates.map((c) => plannedTier(c.file, c.score, picks.has(c.file.path), Boolean(input.taskOnly)));
  const fullLimit = Math.floor(budget * FULL_SHARE);
  const demoted: Candidate[] = [];
  for (const c of fullOrder(candidates.filter((c) => planned[c.i] === 'full'), input.picks ?? [])) {
    // A file's own tokens nearly bound its piece from below: skip rendering what cannot fit.
    const own = tokens[c.i];
    if (own > Math.min(fullLimit - layout.fullUsed, room - layout.used)) {
      demoted.push(c);
      notes.set(c.i, own > budget ? 'larger than the whole budget: listed by description' : 'did not fit in 70% of the budget: listed by description');
      continue;
    }
    const parts = renderer.full(c.file, c.score, text(c.i), layout.isFirst('full'));
    const cost = layout.cost('full', parts);
    if (layout.fullUsed + cost <= fullLimit && fits(cost)) {
      layout.add({ section: 'full', key: renderer.sectionKey('full'), parts, cost, file: c.i });
    } else {
      demoted.push(c);
      notes.set(c.i, cost > budget ? 'larger than the whole budget: listed by description' : 'did not fit in 70% of the budget: listed by description');
    }
  }

  // 3. Descriptions, best score first.
  const described = [...candidates.filter((c) => planned[c.i] === 'description'), ...demoted].sort(byScore);
  let cheapest = Number.POSITIVE_INFINITY;
  let misses = 0;
  for (const c of described) {
    // Once many tries failed and the room left is below the cheapest line seen, stop counting.
    if (misses >= GIVE_UP_AFTER && room - layout.used < cheapest) {
      notes.set(c.i, 'did not fit the budget');
      missed += cheapest;
      continue;
    }
    const parts = renderer.description(c.file, c.score, layout.isFirst('description'), input.memctx);
    const cost = layout.cost('description', parts);
    cheapest = Math.min(cheapest, cost);
    if (fits(cost)) {
      layout.add({ section: 'description', key: renderer.sectionKey('description'), parts, cost, file: c.i });
    } else {
      notes.set(c.i, 'did not fit the budget');
      missed += cost;
      misses++;
    }
  }
  return { layout, notes, missed };
}

function leftOutOf(input: PackInput, layout: Layout, wanted: number[]): LeftOut & { paths: string[] } {
  const placed = new Set(layout.entries.filter((e) => e.file !== undefined).map((e) => e.file!));
  const paths = wanted.filter((i) => !placed.has(i)).map((i) => input.files[i].path);
  const lines = layout.entries.reduce((n, e) => n + (e.lines?.length ?? 0), 0);
  return { files: paths.length, indexLines: input.indexLines.length - lines, paths };
}

/** Pack files into a bundle whose exact token count is at most the budget. */
export function packBundle(input: PackInput): PackResult {
  const renderer = RENDERERS[input.format];
  const { budget, count } = input;
  const text = input.text ?? ((i: number) => fileText(input.files[i] as MemoryFile));
  const tokens = input.tokens ?? input.files.map((_, i) => count(text(i)));
  const picks = new Set(input.picks ?? []);
  const planned = input.files.map((f, i) => plannedTier(f, input.scores[i], picks.has(f.path), Boolean(input.taskOnly)));
  const wanted = planned.flatMap((p, i) => (p === 'index' ? [] : [i]));

  // Lay out with room kept for the "left out" note; without it only when that could fit everything.
  const reserve = count(renderer.leftOut({ files: wanted.length, indexLines: input.indexLines.length }, budget, input.memctx));
  let plan = layoutBundle(input, renderer, text, tokens, reserve);
  let left = leftOutOf(input, plan.layout, wanted);
  if (left.files + left.indexLines > 0 && plan.missed <= reserve) {
    const open = layoutBundle(input, renderer, text, tokens, 0);
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
  const { layout, notes } = plan;
  const empty = layout.fixed > budget;
  const bundle = empty ? '' : assemble(renderer, input, layout, footer);
  const total = empty ? 0 : layout.used + count(footer);

  const tierOf = new Map<number, { tier: Tier; cost: number }>();
  for (const e of layout.entries) if (e.file !== undefined) tierOf.set(e.file, { tier: e.section === 'full' ? 'full' : 'description', cost: e.cost });
  const listed = listedPaths(empty ? [] : layout.entries.flatMap((e) => e.lines ?? []));
  const files: PackedFile[] = input.files.map((file, i) => {
    const placed = tierOf.get(i);
    const inIndex = listed.has(file.path);
    const tier: Tier = placed?.tier ?? (inIndex ? 'index' : 'none');
    const note = tier === 'full' || planned[i] === 'index' ? undefined : tier === 'description' ? notes.get(i) : 'did not fit the budget';
    return { ...input.scores[i], name: file.name, planned: planned[i], tier, tokens: tokens[i], bundleTokens: placed?.cost ?? 0, ...(note ? { note } : {}) };
  });
  files.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const totalFileTokens = tokens.reduce((a, b) => a + b, 0);
  const includedLines = layout.entries.reduce((n, e) => n + (e.lines?.length ?? 0), 0);
  return {
    text: bundle,
    tokens: total,
    budget,
    format: input.format,
    encoding: input.encoding,
    fullTokens: layout.fullUsed,
    fullLimit: Math.floor(budget * FULL_SHARE),
    indexLines: { total: input.indexLines.length, included: empty ? 0 : includedLines },
    files,
    leftOut: { files: empty ? wanted.map((i) => input.files[i].path) : left.paths, indexLines: empty ? input.indexLines.length : left.indexLines },
    totalFileTokens,
    saved: totalFileTokens - total,
  };
}

/** The paths index lines link to (`- [Name](path) — description`). */
function listedPaths(lines: readonly string[]): Set<string> {
  const paths = new Set<string>();
  for (const line of lines) {
    const link = /^- \[(?:[^\]\\]|\\.)*\]\(([^)\s]+)\)/.exec(line);
    if (!link) continue;
    try {
      paths.add(decodeURIComponent(link[1]));
    } catch {
      paths.add(link[1]);
    }
  }
  return paths;
}

function assemble(renderer: Renderer, input: PackInput, layout: Layout, footer: string): string {
  const out = [renderer.header({ budget: input.budget, encoding: input.encoding })];
  let openKey: string | undefined;
  let openSection: SectionId | undefined;
  for (const entry of layout.entries) {
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
  return out.join('');
}
