/**
 * `npm run bench -- retrieval`: two labelled benchmarks, each at budgets of 2,000 / 4,000 / 8,000
 * tokens, every bundle's exact token count checked against its budget.
 *
 * - Real conversations (bench/conversations.ts): multi-session chats, one memory file per session,
 *   each question labelled with its evidence turns. Per budget: evidence turns present in the
 *   bundle (the turn's line is in its text), evidence files in full, beside two naive packers run
 *   here under the same budget (whole files in plain BM25 order; single turns in plain BM25 order);
 *   and `search` recall@1/3/5/8 of the evidence sessions against plain BM25.
 * - The coding-memory benchmark in fixtures/retrieval/: labelled files in full, budget used, and
 *   search recall@5, against plain BM25 (MiniSearch with its defaults over the body).
 */
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import MiniSearch from 'minisearch';
import { REPO } from './measure.js';
import type { BenchRow, BenchSection } from './run.js';
import { findConversations, findLocomo, loadConversations, loadLocomo, LOCOMO_CATEGORIES, type ConversationQuestion, type ConversationSet, type LocomoConversation } from './conversations.js';
import { pack } from '../src/kernel/bundle/bundle.js';
import { search } from '../src/commands/search/search.js';
import { scanMemoryDir } from '../src/kernel/store/scan.js';
import { createTokenCounter, type TokenCounter } from '../src/kernel/tokens/count.js';
import { fileText } from '../src/kernel/bundle/render.js';
import { bundleSources, SOURCES } from './bundle-sources.js';

interface Task {
  id: number;
  task: string;
  full: string[];
}

const BUDGETS = [2000, 4000, 8000];
const RECALL_AT = [1, 3, 5, 8];
const NOW = new Date('2026-11-22T12:00:00Z');
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const recall = (hits: readonly string[], labels: readonly string[]) => labels.filter((l) => hits.includes(l)).length / labels.length;

/** Texts in the given order, each while it fits the budget (counted exactly, pieces ending in a newline). */
function naivePack(texts: Iterable<string>, budget: number, counter: TokenCounter): string {
  let used = 0;
  const out: string[] = [];
  for (const text of texts) {
    const piece = text.endsWith('\n') ? text : `${text}\n`;
    const n = counter.count(piece);
    if (used + n > budget) continue;
    out.push(piece);
    used += n;
  }
  return out.join('');
}

async function conversationRows(set: ConversationSet, counter: TokenCounter): Promise<BenchRow[]> {
  const scanned = scanMemoryDir(set.dir).files;
  const texts = new Map(scanned.map((f) => [f.path, fileText(f)]));
  const byFile = new MiniSearch<{ id: string; body: string }>({ fields: ['body'] });
  byFile.addAll(scanned.map((f) => ({ id: f.path, body: f.body })));
  const turns = scanned.flatMap((f) => f.body.split('\n').filter((l) => l.trim() !== '').map((line, n) => ({ id: `${f.path}#${n}`, line })));
  const byTurn = new MiniSearch<{ id: string; line: string }>({ fields: ['line'], storeFields: ['line'] });
  byTurn.addAll(turns);
  const { questions } = set;
  const evidenceTurns = questions.reduce((n, q) => n + q.turns.length, 0);
  const rows: BenchRow[] = [
    { label: `conversations: ${questions.length} questions, ${set.files} session files, ${evidenceTurns} evidence turns`, value: `${(set.bytes / 1e6).toFixed(1)} MB`, data: { source: set.source } },
  ];

  // Search: recall@k of the evidence sessions, memctx against plain BM25 over the body.
  const ours = RECALL_AT.map(() => 0);
  const base = RECALL_AT.map(() => 0);
  for (const q of questions) {
    const hits = (await search({ root: set.dir, query: q.question, limit: Math.max(...RECALL_AT) }, { now: () => NOW })).hits.map((h) => h.path);
    const baseHits = byFile.search(q.question).map((r) => r.id as string);
    RECALL_AT.forEach((k, n) => {
      ours[n] += recall(hits.slice(0, k), q.files);
      base[n] += recall(baseHits.slice(0, k), q.files);
    });
  }
  rows.push({
    label: `search recall@${RECALL_AT.join('/')} (memctx | BM25)`,
    value: `${ours.map((x) => pct(x / questions.length)).join(' / ')} | ${base.map((x) => pct(x / questions.length)).join(' / ')}`,
    goal: '@5 ≥ BM25 + 10 points',
    ok: ours[2] / questions.length >= base[2] / questions.length + 0.1,
    data: { ours: ours.map((x) => x / questions.length), bm25: base.map((x) => x / questions.length) },
  });

  for (const budget of BUDGETS) {
    let present = 0;
    let presentFiles = 0;
    let presentTurns = 0;
    let full = 0;
    let files = 0;
    let over = 0;
    let worst = 0;
    for (const q of questions) {
      const result = await pack({ root: set.dir, budget, task: q.question, format: 'markdown', encoding: 'o200k_base' }, { now: () => NOW, env: {} });
      const exact = counter.count(result.text);
      worst = Math.max(worst, exact / budget);
      if (exact > budget) over++;
      present += q.turns.filter((t) => result.text.includes(t.line)).length;
      const inFull = new Set(result.files.filter((f) => f.tier === 'full').map((f) => f.path));
      full += q.files.filter((p) => inFull.has(p)).length;
      files += q.files.length;
      const wholeFiles = naivePack(byFile.search(q.question).map((r) => texts.get(r.id as string)!), budget, counter);
      presentFiles += q.turns.filter((t) => wholeFiles.includes(t.line)).length;
      const singleTurns = naivePack(byTurn.search(q.question).map((r) => r.line as string), budget, counter);
      presentTurns += q.turns.filter((t) => singleTurns.includes(t.line)).length;
    }
    const share = present / evidenceTurns;
    const better = Math.max(presentFiles, presentTurns) / evidenceTurns;
    rows.push(
      {
        label: `${budget} tokens: evidence turns present (memctx | whole files | turns, BM25 order)`,
        value: `${pct(share)} | ${pct(presentFiles / evidenceTurns)} | ${pct(presentTurns / evidenceTurns)}`,
        goal: `≥ better naive + 5 points${budget === 8000 ? ', ≥ 90%' : ''}`,
        ok: share >= better + 0.05 && (budget !== 8000 || share >= 0.9),
        data: { memctx: share, wholeFiles: presentFiles / evidenceTurns, turns: presentTurns / evidenceTurns },
      },
      { label: `${budget} tokens: evidence files in full`, value: pct(full / files), data: { share: full / files } },
      { label: `${budget} tokens: bundles over budget (exact count) | largest share`, value: `${over} | ${pct(worst)}`, goal: '0', ok: over === 0, data: { over, worst } },
    );
  }
  return rows;
}

/** A fixed-seed sample of `n` items (all of them when n covers them), in their own order. */
function sample<T>(items: readonly T[], n: number, seed: number): T[] {
  if (n >= items.length) return [...items];
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const index = items.map((_, i) => i);
  for (let i = index.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [index[i], index[j]] = [index[j], index[i]];
  }
  return index.slice(0, n).sort((a, b) => a - b).map((i) => items[i]);
}

/** Tallies of one LoCoMo run: per category (and 0 for all), evidence turns present per packer and budget, recall per k. */
class LocomoTally {
  readonly questions = new Map<number, number>();
  readonly turns = new Map<number, number>();
  /** key `${category}|${packer}|${budget}` → turns present. */
  readonly present = new Map<string, number>();
  /** key `${category}|${engine}|${k}` → summed recall. */
  readonly recall = new Map<string, number>();
  /** key `${packer}|${budget}` → summed bundle tokens. */
  readonly tokens = new Map<string, number>();
  over = 0;
  worst = 0;

  private bump<K>(map: Map<K, number>, key: K, by: number): void {
    map.set(key, (map.get(key) ?? 0) + by);
  }

  question(category: number, turns: number): void {
    for (const c of [0, category]) {
      this.bump(this.questions, c, 1);
      this.bump(this.turns, c, turns);
    }
  }

  hit(category: number, packer: string, budget: number, present: number, tokens: number): void {
    for (const c of [0, category]) this.bump(this.present, `${c}|${packer}|${budget}`, present);
    this.bump(this.tokens, `${packer}|${budget}`, tokens);
  }

  /** Tokens of a memctx bundle's lines by what produced them (bundle-sources.ts). */
  spent(source: string, budget: number, tokens: number): void {
    this.bump(this.tokens, `memctx:${source}|${budget}`, tokens);
  }

  found(category: number, engine: string, k: number, share: number): void {
    for (const c of [0, category]) this.bump(this.recall, `${c}|${engine}|${k}`, share);
  }

  share(category: number, packer: string, budget: number): number {
    return (this.present.get(`${category}|${packer}|${budget}`) ?? 0) / (this.turns.get(category) || 1);
  }

  recallAt(category: number, engine: string, k: number): number {
    return (this.recall.get(`${category}|${engine}|${k}`) ?? 0) / (this.questions.get(category) || 1);
  }
}

const PACKERS = ['memctx', 'wholeFiles', 'turns'] as const;
/** Questions asked by default (BENCH_LOCOMO_QUESTIONS=all asks every one). */
const LOCOMO_SAMPLE = 800;
const LOCOMO_GOALS: Record<number, number> = { 2000: 0.88, 4000: 0.93, 8000: 0.96 };

/** One question of one conversation: search recall, then each budget's bundle beside the two naive packers. */
async function locomoQuestion(conv: LocomoConversation, q: ConversationQuestion & { category: number }, tally: LocomoTally, naive: NaiveIndex, counter: TokenCounter): Promise<void> {
  tally.question(q.category, q.turns.length);
  const hits = (await search({ root: conv.dir, query: q.question, limit: Math.max(...RECALL_AT) }, { now: () => NOW })).hits.map((h) => h.path);
  const baseHits = naive.byFile.search(q.question).map((r) => r.id as string);
  for (const k of RECALL_AT) {
    tally.found(q.category, 'memctx', k, recall(hits.slice(0, k), q.files));
    tally.found(q.category, 'bm25', k, recall(baseHits.slice(0, k), q.files));
  }
  const fileOrder = baseHits.map((id) => naive.texts.get(id)!);
  const turnOrder = naive.byTurn.search(q.question).map((r) => r.line as string);
  for (const budget of BUDGETS) {
    const result = await pack({ root: conv.dir, budget, task: q.question, format: 'markdown', encoding: 'o200k_base' }, { now: () => NOW, env: {} });
    const bundles: Record<(typeof PACKERS)[number], string> = { memctx: result.text, wholeFiles: naivePack(fileOrder, budget, counter), turns: naivePack(turnOrder, budget, counter) };
    for (const packer of PACKERS) {
      const text = bundles[packer];
      const exact = counter.count(text);
      if (packer === 'memctx') {
        tally.worst = Math.max(tally.worst, exact / budget);
        if (exact > budget) tally.over++;
        const sources = bundleSources(text);
        for (const source of SOURCES) tally.spent(source, budget, counter.count(sources[source]));
      }
      tally.hit(q.category, packer, budget, q.turns.filter((t) => text.includes(t.line)).length, exact);
    }
  }
}

interface NaiveIndex {
  texts: Map<string, string>;
  byFile: MiniSearch<{ id: string; body: string }>;
  byTurn: MiniSearch<{ id: string; line: string }>;
}

/** Plain BM25 (MiniSearch's defaults) over each file's body and over each of its non-blank lines. */
function naiveIndex(dir: string): NaiveIndex {
  const scanned = scanMemoryDir(dir).files;
  const byFile = new MiniSearch<{ id: string; body: string }>({ fields: ['body'] });
  byFile.addAll(scanned.map((f) => ({ id: f.path, body: f.body })));
  const byTurn = new MiniSearch<{ id: string; line: string }>({ fields: ['line'], storeFields: ['line'] });
  byTurn.addAll(scanned.flatMap((f) => f.body.split('\n').filter((l) => l.trim() !== '').map((line, n) => ({ id: `${f.path}#${n}`, line }))));
  return { texts: new Map(scanned.map((f) => [f.path, fileText(f)])), byFile, byTurn };
}

/**
 * LoCoMo: every conversation its own memory, every question but the adversarial ones (or a
 * fixed-seed sample of them: BENCH_LOCOMO_QUESTIONS, BENCH_LOCOMO_SEED).
 */
async function locomoRows(source: string, work: string, counter: TokenCounter): Promise<BenchRow[]> {
  const convs = loadLocomo(source, work);
  const all = convs.flatMap((c) => c.questions.map((q) => ({ conv: c, q })));
  // All 1,536 questions take about 3.5 minutes on a 2-core machine: by default a fixed-seed sample.
  const asked = process.env.BENCH_LOCOMO_QUESTIONS ?? String(LOCOMO_SAMPLE);
  const limit = asked === 'all' ? all.length : Number(asked);
  const seed = Number(process.env.BENCH_LOCOMO_SEED ?? 33);
  const chosen = sample(all, limit, seed);
  const tally = new LocomoTally();
  const started = performance.now();
  for (const conv of convs) {
    const mine = chosen.filter((x) => x.conv === conv);
    if (mine.length === 0) continue;
    const naive = naiveIndex(conv.dir);
    for (const { q } of mine) await locomoQuestion(conv, q, tally, naive, counter);
  }
  const seconds = (performance.now() - started) / 1000;
  const n = chosen.length;
  const sampled = n < all.length ? `a sample of ${n} of ${all.length} (seed ${seed})` : `all ${n}`;
  const files = convs.reduce((s, c) => s + c.files, 0);
  const unknown = convs.reduce((s, c) => s + c.unknownEvidence, 0);
  const rows: BenchRow[] = [
    {
      label: `LoCoMo: ${sampled} questions (categories 1-4) in ${convs.length} conversations, ${files} session files, ${tally.turns.get(0) ?? 0} evidence turns${unknown ? ` (${unknown} evidence ids name no turn)` : ''}`,
      value: `${seconds.toFixed(0)} s`,
      data: { source, questions: n, of: all.length, seed, seconds },
    },
  ];
  const cats = [0, ...Object.keys(LOCOMO_CATEGORIES).map(Number)];
  const name = (c: number) => (c === 0 ? 'all' : `${LOCOMO_CATEGORIES[c]} (${tally.questions.get(c) ?? 0})`);
  for (const c of cats) {
    const ours = RECALL_AT.map((k) => tally.recallAt(c, 'memctx', k));
    const base = RECALL_AT.map((k) => tally.recallAt(c, 'bm25', k));
    rows.push({
      label: `LoCoMo ${name(c)}: session recall@${RECALL_AT.join('/')} (memctx | BM25)`,
      value: `${ours.map(pct).join(' / ')} | ${base.map(pct).join(' / ')}`,
      ...(c === 0 ? { goal: '@5 ≥ 93%', ok: ours[2] >= 0.93 } : {}),
      data: { category: c, memctx: ours, bm25: base },
    });
  }
  for (const budget of BUDGETS) {
    for (const c of cats) {
      const [ours, whole, turns] = PACKERS.map((p) => tally.share(c, p, budget));
      const goal = c === 0 ? LOCOMO_GOALS[budget] : Math.max(whole, turns);
      rows.push({
        label: `LoCoMo ${budget} tokens, ${name(c)}: evidence turns present (memctx | whole files | turns, BM25 order)`,
        value: `${pct(ours)} | ${pct(whole)} | ${pct(turns)}`,
        goal: c === 0 ? `≥ ${pct(goal)}` : '≥ better naive',
        ok: ours >= goal,
        data: { category: c, budget, memctx: ours, wholeFiles: whole, turns },
      });
    }
    const perQuestion = PACKERS.map((p) => (tally.tokens.get(`${p}|${budget}`) ?? 0) / Math.max(1, n));
    rows.push({ label: `LoCoMo ${budget} tokens: tokens per question (memctx | whole files | turns)`, value: perQuestion.map((x) => x.toFixed(0)).join(' | '), data: { budget, memctx: perQuestion[0], wholeFiles: perQuestion[1], turns: perQuestion[2] } });
    const bySource = SOURCES.map((source) => (tally.tokens.get(`memctx:${source}|${budget}`) ?? 0) / Math.max(1, n));
    rows.push({ label: `LoCoMo ${budget} tokens: memctx tokens per question by source (${SOURCES.join(' | ')})`, value: bySource.map((x) => x.toFixed(0)).join(' | '), data: { budget, ...Object.fromEntries(SOURCES.map((source, k) => [source, bySource[k]])) } });
  }
  rows.push({ label: 'LoCoMo: memctx bundles over budget (exact count) | largest share', value: `${tally.over} | ${pct(tally.worst)}`, goal: '0', ok: tally.over === 0, data: { over: tally.over, worst: tally.worst } });
  return rows;
}

async function codingRows(work: string, counter: TokenCounter): Promise<BenchRow[]> {
  const dir = join(work, 'memory');
  cpSync(join(REPO, 'fixtures/retrieval/memory'), dir, { recursive: true });
  const tasks = JSON.parse(readFileSync(join(REPO, 'fixtures/retrieval/tasks.json'), 'utf8')) as Task[];
  const files = scanMemoryDir(dir).files;
  const tokens = new Map(files.map((f) => [f.path, counter.count(fileText(f))]));
  const baseline = new MiniSearch<{ id: string; body: string }>({ fields: ['body'] });
  baseline.addAll(files.map((f) => ({ id: f.path, body: f.body })));

  const rows: BenchRow[] = [];
  let ours = 0;
  let base = 0;
  const misses: string[] = [];
  for (const t of tasks) {
    ours += recall((await search({ root: dir, query: t.task, limit: 5 }, { now: () => NOW })).hits.map((h) => h.path), t.full);
    base += recall(baseline.search(t.task).slice(0, 5).map((r) => r.id as string), t.full);
  }
  const recallOurs = ours / tasks.length;
  const recallBase = base / tasks.length;

  for (const budget of BUDGETS) {
    let inFull = 0;
    let labels = 0;
    let used = 0;
    let baseFull = 0;
    let baseUsed = 0;
    for (const t of tasks) {
      const result = await pack({ root: dir, budget, task: t.task, format: 'markdown', encoding: 'o200k_base' }, { now: () => NOW, env: {} });
      const full = new Set(result.files.filter((f) => f.tier === 'full').map((f) => f.path));
      const got = t.full.filter((p) => full.has(p)).length;
      inFull += got;
      labels += t.full.length;
      used += result.tokens / budget;
      if (budget === 8000 && got < t.full.length) misses.push(`#${t.id}: ${t.full.filter((p) => !full.has(p)).join(', ')}`);
      // Baseline: files in BM25 order, each in full while it fits.
      let room = budget;
      const taken = new Set<string>();
      for (const r of baseline.search(t.task)) {
        const n = tokens.get(r.id as string)!;
        if (n <= room) {
          room -= n;
          taken.add(r.id as string);
        }
      }
      baseFull += t.full.filter((p) => taken.has(p)).length;
      baseUsed += (budget - room) / budget;
    }
    const share = inFull / labels;
    const usedShare = used / tasks.length;
    const at8k = budget === 8000;
    rows.push(
      { label: `coding memory, ${budget} tokens: labelled files in full (memctx | BM25)`, value: `${pct(share)} | ${pct(baseFull / labels)}`, ...(at8k ? { goal: '≥ 90%', ok: share >= 0.9 } : {}), data: { share, baseline: baseFull / labels } },
      { label: `coding memory, ${budget} tokens: budget used (memctx | BM25)`, value: `${pct(usedShare)} | ${pct(baseUsed / tasks.length)}`, goal: '≥ 85%', ok: usedShare >= 0.85, data: { used: usedShare, baseline: baseUsed / tasks.length } },
    );
  }
  rows.push({ label: `coding memory: search recall@5 over ${tasks.length} tasks (memctx | BM25)`, value: `${pct(recallOurs)} | ${pct(recallBase)}`, goal: '≥ BM25 + 10 points', ok: recallOurs >= recallBase + 0.1, data: { recallOurs, recallBase } });
  if (misses.length) rows.push({ label: 'coding memory: labelled files not in full at 8,000 tokens', value: String(misses.length), data: { misses } });
  if (process.env.BENCH_VERBOSE) for (const m of misses) console.error(`  missed ${m}`);
  return rows;
}

const section: BenchSection = {
  name: 'retrieval',
  async run(work) {
    rmSync(work, { recursive: true, force: true });
    const counter = createTokenCounter('o200k_base');
    const rows: BenchRow[] = [];
    const locomo = findLocomo();
    if (locomo) rows.push(...(await locomoRows(locomo, work, counter)));
    else rows.push({ label: 'LoCoMo: not found in ../shared/retrieval/locomo/ (MEMCTX_LOCOMO names it; never committed: its licence is CC BY-NC 4.0)', value: 'skipped' });
    const source = findConversations();
    if (source) {
      const set = loadConversations(source, work, { questions: Number(process.env.BENCH_QUESTIONS ?? 300), distractors: Number(process.env.BENCH_DISTRACTORS ?? 3) });
      rows.push(...(await conversationRows(set, counter)));
    } else {
      rows.push({ label: 'held-out conversations: no data set found (fixtures/retrieval/CONVERSATIONS.md says where to put it)', value: 'skipped' });
    }
    rows.push(...(await codingRows(work, counter)));
    return rows;
  },
};

export default section;
