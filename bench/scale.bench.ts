/**
 * `npm run bench -- scale`: index, pack, search and lint at 1,000, 10,000 and 100,000 files (pick
 * sizes with MEMCTX_BENCH_SCALE=1000,10000: the 100,000 runs take minutes), then `pack --task` and
 * `search` on 20,000 and 100,000 notes of 2–8 KB against reading every file once (MEMCTX_BENCH_NOTES), wall time, CPU time and
 * peak memory (maximum resident set) of each process, and the load average. Two corpora: a realistic one (words drawn from a 30,000-word vocabulary, Zipf-like)
 * and a template-made one (session summaries from one template, filled from 40 words, so most
 * shingles are shared by thousands of files), on which lint's duplicate search once grew with the
 * square of the file count. Bad inputs: as many files of one word each, and a memory folder on a
 * slow disk (every fs call delayed in the child process by a preloaded wrapper).
 */
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { rng } from './corpus.js';
import { SESSION_START_BUDGET, SESSION_START_PROFILE } from '../src/kernel/bundle/startup.js';
import { BIN, fmtMs, plainEnv, REPO, stateFolder } from './measure.js';
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

/** Notes of 2–8 KB: frontmatter and 20–80 sentences from the large vocabulary, in paragraphs. */
export function sizedNotes(dir: string, n: number): void {
  const words = vocabulary(30_000, 21);
  const r = rng(22);
  const sentence = () => Array.from({ length: 6 + Math.floor(r() * 14) }, () => zipfWord(r, words)).join(' ');
  writeFiles(dir, n, (i) => {
    const paragraphs = Array.from({ length: 4 + Math.floor(r() * 12) }, () => Array.from({ length: 5 }, () => `${sentence()}.`).join(' '));
    return `---\nname: note ${i}\ndescription: ${sentence().slice(0, 80)}\ntype: project\nupdated: 2026-0${1 + (i % 9)}-1${i % 10}\n---\n\n# ${zipfWord(r, words)} ${zipfWord(r, words)}\n\n${paragraphs.join('\n\n')}\n`;
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
  /** The 1-minute load average as the command ended (the machine is shared). */
  load: number;
}

/** Wall time, CPU time and peak resident memory of `memctx ARGS` (exit 0 or 1), via /usr/bin/time. */
function measure(args: string[], nodeArgs: string[] = []): Measured {
  return measureNode([...nodeArgs, BIN, ...args]);
}

/** measure, of `node ARGS`. */
function measureNode(args: string[]): Measured {
  const start = process.hrtime.bigint();
  const run = spawnSync('/usr/bin/time', ['-f', 'cpu-s=%U %S peak-kb=%M', process.execPath, ...args], { env: plainEnv(), encoding: 'utf8', maxBuffer: 1 << 30 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const load = loadavg()[0];
  if (run.status !== 0 && run.status !== 1) throw new Error(`benchmark command failed (${run.status}): node ${args.join(' ')}\n${run.stderr.slice(-2000)}`);
  const [user, sys] = (/cpu-s=([\d.]+) ([\d.]+)/.exec(run.stderr)?.slice(1) ?? ['NaN', 'NaN']).map(Number);
  return { ms, cpuMs: (user + sys) * 1000, peakMb: Number(/peak-kb=(\d+)/.exec(run.stderr)?.[1] ?? Number.NaN) / 1024, load };
}

const show = (m: Measured) => `${fmtMs(m.ms)} (cpu ${fmtMs(m.cpuMs)}), ${m.peakMb.toFixed(0)} MB`;

/** Files of one word each. */
function oneWord(dir: string, n: number): void {
  const words = vocabulary(5000, 14);
  writeFiles(dir, n, (i) => `${words[i % words.length]}\n`);
}

/** Delay per fs call in the slow-disk runs. */
const SLOW_MS = 0.5;

/**
 * A module preloaded with `--import` that makes every synchronous fs call (and the promise API's
 * reads and writes) wait SLOW_MS first, as on a network or spun-down disk.
 */
function slowFsModule(work: string): string {
  const path = join(work, 'slow-fs.mjs');
  writeFileSync(
    path,
    `import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
const cell = new Int32Array(new SharedArrayBuffer(4));
const wait = () => Atomics.wait(cell, 0, 0, ${SLOW_MS});
for (const name of Object.keys(fs)) {
  const fn = fs[name];
  if (typeof fn !== 'function' || !/Sync$/.test(name)) continue;
  fs[name] = Object.assign(function (...args) { wait(); return fn.apply(this, args); }, fn);
}
for (const name of ['readFile', 'writeFile', 'open', 'stat', 'lstat', 'readdir']) {
  const fn = fs.promises[name];
  fs.promises[name] = async (...args) => { wait(); return fn(...args); };
}
syncBuiltinESMExports();
`,
  );
  return pathToFileURL(path).href;
}

/** Goal on a lint row at 100,000 files: CPU (or wall, when lower) and peak memory. */
function lintGoal(n: number, m: Measured): Pick<BenchRow, 'goal' | 'ok'> {
  return n >= 100_000 ? { goal: '≤ 10 s, ≤ 1 GB', ok: Math.min(m.ms, m.cpuMs) <= 10_000 && m.peakMb <= 1024 } : {};
}

/** Sizes from MEMCTX_BENCH_SCALE (a comma-separated list, or `none`), else 1,000, 10,000 and 100,000. */
function scaleSizes(value: string | undefined): number[] {
  if (value?.trim() === 'none') return [];
  const picked = (value ?? '').split(',').map((v) => Number(v.replace(/_/g, '').trim())).filter((v) => Number.isInteger(v) && v > 0);
  return picked.length ? picked : [1000, 10_000, 100_000];
}

/** Bytes of the files under dir (a folder's size as `du -b` counts its files). */
function folderBytes(dir: string): number {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) if (entry.isFile()) bytes += statSync(join(entry.parentPath, entry.name)).size;
  return bytes;
}

/** The floor: a Node process that globs the .md files under dir and reads each one once. */
function readFloor(dir: string): Measured {
  const script = `const fg = require(${JSON.stringify(join(REPO, 'node_modules/fast-glob'))}); const fs = require('fs'); let n = 0;
for (const p of fg.sync('**/*.md', { cwd: ${JSON.stringify(dir)}, absolute: true })) n += fs.readFileSync(p, 'utf8').length;
if (n < 0) console.log(n);`;
  return measureNode(['-e', script]);
}

/** Sizes from MEMCTX_BENCH_NOTES (or `none`), else 20,000 and 100,000. */
const notesSizes = (value: string | undefined) => (value === undefined ? [20_000, 100_000] : scaleSizes(value));

/**
 * What a task's answer costs against the memory's size, on notes of 2–8 KB: cold and warm `pack --task`
 * (warm also after the SessionStart bundle, a pack without a task) and warm `search` against the CPU of
 * reading every file once, and the state folder against the memory.
 */
async function answerCost(work: string, n: number): Promise<BenchRow[]> {
  const count = n.toLocaleString('en-US');
  const dir = join(work, `notes-${n}/.memory`);
  sizedNotes(dir, n);
  // Files changed in the last 2 s are never kept by the stat-keyed caches: let them age first.
  await new Promise((done) => setTimeout(done, 2100));
  const memoryBytes = folderBytes(dir);
  const floor = readFloor(dir);
  rmSync(stateFolder(dir), { recursive: true, force: true });
  const task = ['pack', '--task', 'vorka telqui', '--out', join(work, 'bundle.md')];
  const cold = measure(['--dir', dir, ...task]);
  const warm = measure(['--dir', dir, ...task]);
  const search = measure(['--dir', dir, 'search', 'vorka telqui']);
  const stateBytes = folderBytes(stateFolder(dir));
  const stateFiles = Object.fromEntries(readdirSync(stateFolder(dir)).map((name) => [name, statSync(join(stateFolder(dir), name)).size]));
  // What users run: the SessionStart bundle (a pack without a task, counting what it places), then a task.
  measure(['--dir', dir, 'pack', '--profile', SESSION_START_PROFILE, '--budget', String(SESSION_START_BUDGET), '--quiet']);
  const afterStart = measure(['--dir', dir, ...task]);
  rmSync(dirname(dir), { recursive: true, force: true });
  const big = n >= 100_000;
  const ratio = (m: Measured) => `${show(m)} = ${(m.cpuMs / floor.cpuMs).toFixed(1)}× read (load ${m.load.toFixed(1)})`;
  const data = (m: Measured) => ({ ...m, readCpuMs: floor.cpuMs });
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
  return [
    { label: `${count} notes of 2–8 KB: read every file once`, value: show(floor), data: { ...floor, memoryBytes } },
    { label: `${count} notes: pack --task, cold`, value: ratio(cold), data: data(cold), ...(big ? { goal: '≤ 20 s, ≤ 2 GB', ok: cold.ms <= 20_000 && cold.peakMb <= 2048 } : { goal: '≤ 10× read CPU, ≤ 1 GB', ok: cold.cpuMs <= 10 * floor.cpuMs && cold.peakMb <= 1024 }) },
    { label: `${count} notes: pack --task, warm`, value: ratio(warm), data: data(warm), ...(big ? { goal: '≤ 3 s', ok: warm.ms <= 3000 } : { goal: '≤ 2× read CPU', ok: warm.cpuMs <= 2 * floor.cpuMs }) },
    { label: `${count} notes: pack --task, warm, after a SessionStart pack without a task`, value: ratio(afterStart), data: data(afterStart), ...(big ? { goal: '≤ 3 s', ok: afterStart.ms <= 3000 } : { goal: '≤ 2× read CPU', ok: afterStart.cpuMs <= 2 * floor.cpuMs }) },
    { label: `${count} notes: search, warm`, value: ratio(search), data: data(search), ...(big ? {} : { goal: '≤ 2× read CPU', ok: search.cpuMs <= 2 * floor.cpuMs }) },
    { label: `${count} notes: machine state / memory`, value: `${mb(stateBytes)} / ${mb(memoryBytes)}`, data: { stateBytes, memoryBytes, stateFiles }, goal: '≤ the memory', ok: stateBytes <= memoryBytes },
  ];
}

async function scaleRows(work: string): Promise<BenchRow[]> {
  const sizes = scaleSizes(process.env.MEMCTX_BENCH_SCALE);
  const rows: BenchRow[] = [];
  const load = loadavg()[0];
  const row = (label: string, m: Measured, extra: Partial<BenchRow> = {}): BenchRow => ({ label, value: show(m), data: { ...m, load: loadavg()[0] }, ...extra });
  for (const n of sizes) {
    const count = n.toLocaleString('en-US');
    const dir = join(work, `real-${n}/.memory`);
    realistic(dir, n);
    const index = measure(['--dir', dir, 'index']);
    const indexWarm = measure(['--dir', dir, 'index', '--check']);
    rmSync(stateFolder(dir), { recursive: true, force: true });
    const packCold = measure(['--dir', dir, 'pack', '--task', 'vorka telqui', '--out', join(work, 'bundle.md')]);
    const packWarm = measure(['--dir', dir, 'pack', '--task', 'vorka telqui', '--out', join(work, 'bundle.md')]);
    const search = measure(['--dir', dir, 'search', 'vorka telqui']);
    rmSync(stateFolder(dir), { recursive: true, force: true });
    const lint = measure(['--dir', dir, 'lint', '--format', 'json']);
    const lintWarm = measure(['--dir', dir, 'lint', '--format', 'json']);
    rmSync(dirname(dir), { recursive: true, force: true });
    const tdir = join(work, `template-${n}/.memory`);
    templated(tdir, n);
    // Files changed in the last 2 s are never kept by the stat-keyed caches: let them age first.
    await new Promise((done) => setTimeout(done, 2100));
    const tlint = measure(['--dir', tdir, 'lint', '--format', 'json']);
    const tlintWarm = measure(['--dir', tdir, 'lint', '--format', 'json']);
    rmSync(dirname(tdir), { recursive: true, force: true });
    const odir = join(work, `one-word-${n}/.memory`);
    oneWord(odir, n);
    const oindex = measure(['--dir', odir, 'index']);
    const opack = measure(['--dir', odir, 'pack', '--task', 'vorka', '--out', join(work, 'bundle.md')]);
    const olint = measure(['--dir', odir, 'lint', '--format', 'json']);
    rmSync(dirname(odir), { recursive: true, force: true });
    rows.push(
      row(`${count} files: index (write MEMORY.md), cold`, index),
      row(`${count} files: index --check, warm`, indexWarm),
      { label: `${count} files: pack --task, cold / warm`, value: `${show(packCold)} / ${show(packWarm)}`, data: { packCold, packWarm, load: loadavg()[0] } },
      row(`${count} files: search, warm`, search),
      row(`${count} files: lint, realistic vocabulary, first run`, lint, lintGoal(n, lint)),
      row(`${count} files: lint, realistic vocabulary, second run`, lintWarm),
      row(`${count} files: lint, template-made files, first run`, tlint, lintGoal(n, tlint)),
      row(`${count} files: lint, template-made files, second run`, tlintWarm),
      row(`${count} files of one word: index, cold`, oindex),
      row(`${count} files of one word: pack --task, cold`, opack),
      row(`${count} files of one word: lint, first run`, olint),
    );
  }
  for (const n of notesSizes(process.env.MEMCTX_BENCH_NOTES)) rows.push(...(await answerCost(work, n)));
  // A slow disk: the same commands with every fs call delayed, at the smallest size (or 1,000 files).
  const slowN = Math.min(1000, ...sizes);
  const sdir = join(work, `slow-${slowN}/.memory`);
  realistic(sdir, slowN);
  const slow = ['--import', slowFsModule(work)];
  const sindex = measure(['--dir', sdir, 'index'], slow);
  const spack = measure(['--dir', sdir, 'pack', '--task', 'vorka telqui', '--out', join(work, 'bundle.md')], slow);
  rmSync(stateFolder(sdir), { recursive: true, force: true });
  const slint = measure(['--dir', sdir, 'lint', '--format', 'json'], slow);
  const slintWarm = measure(['--dir', sdir, 'lint', '--format', 'json'], slow);
  const slowCount = slowN.toLocaleString('en-US');
  rows.push(
    row(`slow disk (+${SLOW_MS} ms per fs call), ${slowCount} files: index`, sindex),
    row(`slow disk, ${slowCount} files: pack --task, cold`, spack),
    row(`slow disk, ${slowCount} files: lint, first / second run`, slint, { value: `${show(slint)} / ${show(slintWarm)}`, data: { slint, slintWarm } }),
  );
  rows.push({ label: `wall time (CPU time), peak resident memory; 1-min load ${load.toFixed(1)}→${loadavg()[0].toFixed(1)} on ${cpus().length} cores`, value: '' });
  return rows;
}

const section: BenchSection = {
  name: 'scale',
  async run() {
    // Generated memories go under the temporary folder, never into the repository.
    const work = mkdtempSync(join(tmpdir(), 'memctx-bench-scale-'));
    try {
      return await scaleRows(work);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  },
};

export default section;
