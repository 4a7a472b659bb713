/**
 * `npm run bench -- retrieval`: the labelled benchmark in fixtures/retrieval/. For each task and a
 * budget of 2,000 / 4,000 / 8,000 tokens: the share of labelled files `pack --task` holds in full,
 * the share of the budget the bundle uses, and `search` recall@5 — next to a plain BM25 baseline
 * (MiniSearch with its defaults over the body; files in its order, in full while they fit).
 */
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import MiniSearch from 'minisearch';
import { REPO } from './measure.js';
import type { BenchRow, BenchSection } from './run.js';
import { pack } from '../src/actions/pack.js';
import { scanMemoryDir } from '../src/store/scan.js';
import { searchMemory } from '../src/search/rank.js';
import { createTokenCounter } from '../src/tokens/count.js';
import { fileText } from '../src/pack/render.js';

interface Task {
  id: number;
  task: string;
  full: string[];
}

const BUDGETS = [2000, 4000, 8000];
const NOW = new Date('2026-11-22T12:00:00Z');
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

const section: BenchSection = {
  name: 'retrieval',
  async run(work) {
    const dir = join(work, 'memory');
    rmSync(work, { recursive: true, force: true });
    cpSync(join(REPO, 'fixtures/retrieval/memory'), dir, { recursive: true });
    const tasks = JSON.parse(readFileSync(join(REPO, 'fixtures/retrieval/tasks.json'), 'utf8')) as Task[];
    const files = scanMemoryDir(dir).files;
    const counter = createTokenCounter('o200k_base');
    const tokens = new Map(files.map((f) => [f.path, counter.count(fileText(f))]));
    const baseline = new MiniSearch<{ id: string; body: string }>({ fields: ['body'] });
    baseline.addAll(files.map((f) => ({ id: f.path, body: f.body })));

    const rows: BenchRow[] = [];
    const recall = (hits: string[], labels: string[]) => labels.filter((l) => hits.includes(l)).length / labels.length;
    let ours = 0;
    let base = 0;
    const misses: string[] = [];
    for (const t of tasks) {
      ours += recall(searchMemory(files, t.task, { now: NOW, accessCount: () => 0, limit: 5 }).map((h) => h.path), t.full);
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
        { label: `${budget} tokens: labelled files in full (memctx / BM25)`, value: `${pct(share)} / ${pct(baseFull / labels)}`, ...(at8k ? { goal: '≥ 90%', ok: share >= 0.9 } : {}), data: { share, baseline: baseFull / labels } },
        { label: `${budget} tokens: budget used (memctx / BM25)`, value: `${pct(usedShare)} / ${pct(baseUsed / tasks.length)}`, goal: '≥ 85%', ok: usedShare >= 0.85, data: { used: usedShare, baseline: baseUsed / tasks.length } },
      );
    }
    rows.push({ label: `search recall@5 over ${tasks.length} tasks (memctx / BM25)`, value: `${pct(recallOurs)} / ${pct(recallBase)}`, goal: '≥ BM25 + 10 points', ok: recallOurs >= recallBase + 0.1, data: { recallOurs, recallBase } });
    if (misses.length) rows.push({ label: 'labelled files not in full at 8,000 tokens', value: String(misses.length), data: { misses } });
    if (process.env.BENCH_VERBOSE) for (const m of misses) console.error(`  missed ${m}`);
    return rows;
  },
};

export default section;
