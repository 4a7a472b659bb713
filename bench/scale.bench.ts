/**
 * `npm run bench -- scale`: index, pack, search and lint at 1,000 and 10,000 files (and 100,000 with
 * MEMCTX_BENCH_SCALE=100000, slow to generate), wall time and peak memory (maximum resident set) of
 * each process. Two corpora: a realistic one (words drawn from a 30,000-word vocabulary, Zipf-like)
 * and a template-made one (session summaries from one template, filled from 40 words, so most
 * shingles are shared by thousands of files), on which lint's duplicate search once grew with the
 * square of the file count.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { rng } from './corpus.js';
import { BIN, fmtMs, plainEnv } from './measure.js';
import type { BenchRow, BenchSection } from './run.js';

/** A made-up vocabulary of n words (syllable strings), deterministic. */
function vocabulary(n: number, seed: number): string[] {
  const r = rng(seed);
  const syllables = 'ka lo mi ne ru sta pe qui vor zan tel bri ox um ael jo nu ce dra fen gil hap'.split(' ');
  const words = new Set<string>();
  while (words.size < n) words.add(Array.from({ length: 2 + Math.floor(r() * 3) }, () => syllables[Math.floor(r() * syllables.length)]).join(''));
  return [...words];
}

/** A word by Zipf's law: the k-th most common word with probability about 1 / (k · ln n). */
function zipfWord(r: () => number, words: string[]): string {
  return words[Math.min(words.length - 1, Math.floor(words.length ** r()) - 1)];
}

function writeFiles(dir: string, n: number, text: (i: number) => string): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < n; i++) {
    const path = join(dir, i % 10 === 0 ? 'tasks' : '', `note_${String(i).padStart(6, '0')}.md`);
    if (i < 10) mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text(i));
  }
  writeFileSync(join(dir, 'MEMORY.md'), '# Memory\n');
}

/** Realistic notes: frontmatter and ~1.2 KB of prose from a large vocabulary. */
export function realistic(dir: string, n: number): void {
  const words = vocabulary(30_000, 11);
  const r = rng(12);
  const sentence = () => Array.from({ length: 6 + Math.floor(r() * 14) }, () => zipfWord(r, words)).join(' ');
  writeFiles(dir, n, (i) => {
    const body = Array.from({ length: 10 }, () => `${sentence()}.`).join(i % 3 === 0 ? '\n\n' : ' ');
    return `---\nname: note ${i}\ndescription: ${sentence().slice(0, 80)}\ntype: project\nupdated: 2026-0${1 + (i % 9)}-1${i % 10}\n---\n\n# ${zipfWord(r, words)} ${zipfWord(r, words)}\n\n${body}\n`;
  });
}

/** Session summaries from one template, each field filled from 40 words. */
export function templated(dir: string, n: number): void {
  const words = 'auth token session cache index budget memory agent refactor migration schema database query latency deploy rollback review test fixture parser module service handler request response queue worker retry timeout config secret rotate policy user project decision issue state learning context'.split(' ');
  const r = rng(13);
  const line = (k: number) => Array.from({ length: k }, () => words[Math.floor(r() * words.length)]).join(' ');
  writeFiles(dir, n, (i) =>
    `---\nname: session ${i}\ndescription: ${line(8)}\ntype: project\nkind: state\nupdated: 2026-03-1${i % 10}\n---\n\n## Goal\n\n${line(12)}\n\n## Progress\n\n- ${line(10)}\n- ${line(9)}\n\n## Decisions\n\n- ${line(14)}\n\n## Blockers\n\nnone recorded\n\n## Next steps\n\n- ${line(8)}\n`,
  );
}

interface Measured {
  ms: number;
  /** User + system CPU time: on a shared machine, steadier than the wall time. */
  cpuMs: number;
  peakMb: number;
}

/** Wall time, CPU time and peak resident memory of `memctx ARGS` (exit 0 or 1), via /usr/bin/time. */
function measure(args: string[]): Measured {
  const start = process.hrtime.bigint();
  const run = spawnSync('/usr/bin/time', ['-f', 'cpu-s=%U %S peak-kb=%M', process.execPath, BIN, ...args], { env: plainEnv(), encoding: 'utf8', maxBuffer: 1 << 30 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (run.status !== 0 && run.status !== 1) throw new Error(`benchmark command failed (${run.status}): memctx ${args.join(' ')}\n${run.stderr.slice(-2000)}`);
  const [user, sys] = (/cpu-s=([\d.]+) ([\d.]+)/.exec(run.stderr)?.slice(1) ?? ['NaN', 'NaN']).map(Number);
  return { ms, cpuMs: (user + sys) * 1000, peakMb: Number(/peak-kb=(\d+)/.exec(run.stderr)?.[1] ?? Number.NaN) / 1024 };
}

const show = (m: Measured) => `${fmtMs(m.ms)} (cpu ${fmtMs(m.cpuMs)}), ${m.peakMb.toFixed(0)} MB`;

const section: BenchSection = {
  name: 'scale',
  async run(work) {
    const sizes = [1000, 10_000, ...(Number(process.env.MEMCTX_BENCH_SCALE) >= 100_000 ? [100_000] : [])];
    const rows: BenchRow[] = [];
    const load = loadavg()[0];
    for (const n of sizes) {
      const dir = join(work, `real-${n}/.memory`);
      realistic(dir, n);
      const index = measure(['--dir', dir, 'index']);
      const indexWarm = measure(['--dir', dir, 'index', '--check']);
      rmSync(join(dir, '.memctx'), { recursive: true, force: true });
      const packCold = measure(['--dir', dir, 'pack', '--task', 'vorka telqui', '--out', join(work, 'bundle.md')]);
      const packWarm = measure(['--dir', dir, 'pack', '--task', 'vorka telqui', '--out', join(work, 'bundle.md')]);
      const search = measure(['--dir', dir, 'search', 'vorka telqui']);
      rmSync(join(dir, '.memctx'), { recursive: true, force: true });
      const lint = measure(['--dir', dir, 'lint', '--format', 'json']);
      const lintWarm = measure(['--dir', dir, 'lint', '--format', 'json']);
      const tdir = join(work, `template-${n}/.memory`);
      templated(tdir, n);
      const tlint = measure(['--dir', tdir, 'lint', '--format', 'json']);
      const tlintWarm = measure(['--dir', tdir, 'lint', '--format', 'json']);
      const big = n >= 100_000;
      const lintGoal = big ? { goal: '≤ 10 s, ≤ 1 GB', ok: Math.min(lint.ms, lint.cpuMs) <= 10_000 && lint.peakMb <= 1024 } : {};
      const tlintGoal = big ? { goal: '≤ 10 s, ≤ 1 GB', ok: Math.min(tlint.ms, tlint.cpuMs) <= 10_000 && tlint.peakMb <= 1024 } : {};
      const count = n.toLocaleString('en-US');
      rows.push(
        { label: `${count} files: index (write MEMORY.md), cold`, value: show(index), data: { ...index } },
        { label: `${count} files: index --check, warm`, value: show(indexWarm), data: { ...indexWarm } },
        { label: `${count} files: pack --task, cold / warm`, value: `${show(packCold)} / ${show(packWarm)}`, data: { packCold, packWarm } },
        { label: `${count} files: search, warm`, value: show(search), data: { ...search } },
        { label: `${count} files: lint, realistic vocabulary, first run`, value: show(lint), ...lintGoal, data: { ...lint } },
        { label: `${count} files: lint, realistic vocabulary, second run`, value: show(lintWarm), data: { ...lintWarm } },
        { label: `${count} files: lint, template-made files, first run`, value: show(tlint), ...tlintGoal, data: { ...tlint } },
        { label: `${count} files: lint, template-made files, second run`, value: show(tlintWarm), data: { ...tlintWarm } },
      );
    }
    rows.push({ label: `wall time (CPU time), peak resident memory; 1-min load ${load.toFixed(1)}→${loadavg()[0].toFixed(1)} on ${cpus().length} cores`, value: '' });
    return rows;
  },
};

export default section;
