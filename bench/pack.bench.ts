/**
 * `npm run bench -- pack`: token-counting throughput of memctx's counter against plain js-tiktoken
 * and gpt-tokenizer (same text, same process), then `memctx pack` on 2,000 files (~10 MB) cold and
 * warm against the time to read those files and against Repomix on the same files (bench/repomix.ts),
 * and proof that a warm pack never loads the tokenizer.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateCorpus, memoryText, rng } from './corpus.js';
import { fmtMs, fmtRatio, median, plainEnv, timeFn, BIN, REPO, stateFolder } from './measure.js';
import { repomixRows } from './repomix.js';
import type { BenchRow, BenchSection } from './run.js';
import { createTokenCounter } from '../src/kernel/tokens/count.js';
import { spawnSync } from 'node:child_process';

const mbps = (bytes: number, ms: number) => `${(bytes / 1e6 / (ms / 1000)).toFixed(1)} MB/s`;

/** About `bytes` of Markdown memory files from the corpus generator, as one string. */
function corpusText(bytes: number, seed: number): string {
  const r = rng(seed);
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const text = memoryText(r, i, 2000, 5000);
    parts.push(text);
    size += text.length;
  }
  return parts.join('');
}

/** Text with a large vocabulary: made-up words, Unicode, numbers and code, so few pieces repeat. */
function variedText(bytes: number, seed: number): string {
  const r = rng(seed);
  const syllables = 'ka lo mi ne ru sta pe qui vor zan tel bri ox um ael jö ñu çe ß 日 本 語 дом мир γει'.split(' ');
  const word = () => Array.from({ length: 1 + Math.floor(r() * 4) }, () => syllables[Math.floor(r() * syllables.length)]).join('');
  const out: string[] = [];
  let size = 0;
  while (size < bytes) {
    const kind = Math.floor(r() * 5);
    let line: string;
    if (kind === 0) line = `const ${word()}_${Math.floor(r() * 1e6)} = await ${word()}(${Math.floor(r() * 1e4)}, "${word()}");`;
    else if (kind === 1) line = `- ${word()} ${word()} (${(r() * 1000).toFixed(3)}) → ${word()} 🙂`;
    else line = Array.from({ length: 8 + Math.floor(r() * 10) }, word).join(' ') + '.';
    out.push(line);
    size += line.length + 1;
  }
  return out.join('\n');
}

async function throughput(label: string, text: string): Promise<BenchRow[]> {
  const bytes = Buffer.byteLength(text);
  const { Tiktoken } = await import('js-tiktoken/lite');
  const ranks = (await import('js-tiktoken/ranks/o200k_base')).default;
  const gpt = await import('gpt-tokenizer/encoding/o200k_base');

  // memctx: a fresh counter per run, so every run starts with an empty piece cache (a cold pack).
  let ours = 0;
  const oursLoad: number[] = [];
  const oursCount: number[] = [];
  for (let i = 0; i < 5; i++) {
    let start = process.hrtime.bigint();
    const counter = createTokenCounter('o200k_base');
    oursLoad.push(Number(process.hrtime.bigint() - start) / 1e6);
    start = process.hrtime.bigint();
    ours = counter.count(text);
    oursCount.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  let plain = 0;
  const plainLoad = timeFn(() => new Tiktoken(ranks), 1);
  const tiktoken = new Tiktoken(ranks);
  const plainCount = timeFn(() => (plain = tiktoken.encode(text, [], []).length), 1);
  let theirs = 0;
  const gptCount = timeFn(() => (theirs = gpt.countTokens(text)), 5);
  const same = ours === plain && ours === theirs;
  const oursMs = median(oursCount);
  const vsGpt = gptCount.medianMs / oursMs;
  const vsPlain = plainCount.medianMs / oursMs;
  return [
    { label: `${label}: tokens (memctx / js-tiktoken / gpt-tokenizer)`, value: `${ours} ${same ? '=' : '≠'}`, goal: 'identical', ok: same, data: { bytes, ours, plain, theirs } },
    { label: `${label}: memctx counter`, value: mbps(bytes, oursMs), data: { runsMs: oursCount, medianMs: oursMs, loadMs: median(oursLoad) } },
    { label: `${label}: plain js-tiktoken encode`, value: mbps(bytes, plainCount.medianMs), data: { ...plainCount, loadMs: plainLoad.medianMs } },
    { label: `${label}: gpt-tokenizer countTokens`, value: mbps(bytes, gptCount.medianMs), data: { ...gptCount } },
    { label: `${label}: memctx / gpt-tokenizer`, value: fmtRatio(vsGpt), goal: '≥ 0.8×', ok: vsGpt >= 0.8 },
    { label: `${label}: memctx / plain js-tiktoken`, value: fmtRatio(vsPlain), ...(label.startsWith('corpus') ? { goal: '≈ 5×', ok: vsPlain >= 4 } : {}) },
  ];
}

interface WallAndCpu {
  medianMs: number;
  cpuMs: number;
  runsMs: number[];
  cpuRunsMs: number[];
}

/**
 * Wall time and CPU time (user + system, read by a preloaded probe at exit) of a Node process, with
 * NODE_EXTRA_CA_CERTS unset as for most users (plainEnv). On a shared machine the CPU time is the
 * steadier figure; the goals are on wall time.
 */
function timeWithCpu(work: string, args: string[], runs: number, before?: () => void): WallAndCpu {
  const probe = join(work, 'cpu-probe.cjs');
  writeFileSync(probe, "process.on('exit', () => { const u = process.cpuUsage(); process.stderr.write('cpu-ms=' + (u.user + u.system) / 1000 + '\\n'); });\n");
  const runsMs: number[] = [];
  const cpuRunsMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    before?.();
    const start = process.hrtime.bigint();
    const result = spawnSync(process.execPath, args, { env: plainEnv({ NODE_OPTIONS: `--require ${probe}` }), encoding: 'utf8', maxBuffer: 1 << 30 });
    runsMs.push(Number(process.hrtime.bigint() - start) / 1e6);
    if (result.status !== 0) throw new Error(`benchmark command failed (${result.status}): ${args.join(' ')}\n${result.stderr}`);
    cpuRunsMs.push(Number(/cpu-ms=([\d.]+)/.exec(result.stderr)?.[1] ?? Number.NaN));
  }
  return { medianMs: median(runsMs), cpuMs: median(cpuRunsMs), runsMs, cpuRunsMs };
}

const both = (t: WallAndCpu) => `${fmtMs(t.medianMs)} (cpu ${fmtMs(t.cpuMs)})`;

/** A cold pack's wall time per phase (MEMCTX_TIMING=1), the median of each over `runs` runs. */
function coldPhases(work: string, args: string[], cache: string, runs: number): BenchRow[] {
  const byPhase = new Map<string, number[]>();
  for (let i = 0; i < runs; i++) {
    rmSync(cache, { recursive: true, force: true });
    const result = spawnSync(process.execPath, [BIN, '--quiet', ...args], { cwd: work, env: plainEnv({ MEMCTX_TIMING: '1' }), encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`benchmark command failed (${result.status}): ${args.join(' ')}\n${result.stderr}`);
    for (const line of result.stderr.trim().split('\n').slice(1)) {
      const [phase, ms] = line.split(/ {2,}/);
      byPhase.set(phase, [...(byPhase.get(phase) ?? []), Number(ms)]);
    }
  }
  const total = median(byPhase.get('total') ?? [0]);
  return [...byPhase].map(([phase, ms]) => ({
    label: `cold pack phase (MEMCTX_TIMING, median of ${runs}): ${phase}`,
    value: phase === 'total' ? fmtMs(median(ms)) : `${fmtMs(median(ms))} (${Math.round((100 * median(ms)) / total)}%)`,
    data: { runsMs: ms },
  }));
}

const section: BenchSection = {
  name: 'pack',
  async run(work) {
    const rows: BenchRow[] = [];
    rows.push(...(await throughput('corpus 10 MB', corpusText(10e6, 5))));
    rows.push(...(await throughput('varied 2 MB', variedText(2e6, 6))));
    const load = rows.find((r) => r.label === 'corpus 10 MB: memctx counter')!.data!.loadMs as number;
    const plainLoad = rows.find((r) => r.label === 'corpus 10 MB: plain js-tiktoken encode')!.data!.loadMs as number;
    rows.push({ label: 'o200k_base load: memctx / plain js-tiktoken', value: `${fmtMs(load)} / ${fmtMs(plainLoad)}` });

    const dir = join(work, '2k/.memory');
    const bytes = generateCorpus(dir, 2000, { bytes: 5000, seed: 7 });
    const cache = stateFolder(dir);
    const args = ['--dir', dir, 'pack', '--task', 'auth token migration', '--out', join(work, 'bundle.md')];
    const floorScript = `const fg = require(${JSON.stringify(join(REPO, 'node_modules/fast-glob'))}); const fs = require('fs'); let n = 0; for (const p of fg.sync('**/*.md', { cwd: ${JSON.stringify(dir)}, absolute: true })) n += fs.readFileSync(p, 'utf8').length;`;
    const floor = timeWithCpu(work, ['-e', floorScript], 7);
    const node = timeWithCpu(work, ['-e', ''], 7);
    timeWithCpu(work, [BIN, '--dir', dir, 'index'], 1); // writes MEMORY.md once; later runs only check it
    const indexCheck = timeWithCpu(work, [BIN, '--dir', dir, 'index'], 5);
    const cold = timeWithCpu(work, [BIN, ...args], 5, () => rmSync(cache, { recursive: true, force: true }));
    timeWithCpu(work, [BIN, ...args], 1);
    const warm = timeWithCpu(work, [BIN, ...args], 7);
    const search = timeWithCpu(work, [BIN, '--dir', dir, 'search', 'auth token migration'], 7);
    const warmGoal = 3 * floor.medianMs + node.medianMs;
    const warmCpuGoal = 3 * floor.cpuMs + node.cpuMs;
    rows.push(
      { label: `read floor: glob + read 2,000 files (${(bytes / 1e6).toFixed(1)} MB)`, value: both(floor), data: { ...floor, bytes } },
      { label: 'node start-up (empty script)', value: both(node), data: { ...node } },
      { label: 'memctx index, same 2,000 files (scan + MEMORY.md)', value: both(indexCheck), data: { ...indexCheck } },
      { label: 'memctx pack, 2,000 files, cold (no cache)', value: both(cold), goal: '≤ 1500 ms', ok: cold.medianMs <= 1500, data: { ...cold } },
      { label: 'memctx pack, 2,000 files, warm (every count cached)', value: both(warm), goal: `≤ 3× floor + start-up = ${fmtMs(warmGoal)}`, ok: warm.medianMs <= warmGoal, data: { ...warm } },
      // CPU time counts V8's helper threads too, so it can exceed wall time: shown, not judged.
      { label: 'memctx search, 2,000 files, warm (pack cache)', value: both(search), goal: '< 300 ms', ok: search.medianMs < 300, data: { ...search } },
      { label: 'warm pack cpu vs 3× floor cpu + start-up cpu', value: `${fmtMs(warm.cpuMs)} vs ${fmtMs(warmCpuGoal)}` },
      { label: 'warm pack / read floor (wall, cpu)', value: `${fmtRatio(warm.medianMs / floor.medianMs)}, ${fmtRatio(warm.cpuMs / floor.cpuMs)}` },
      { label: 'warm pack − index, cpu (what pack adds to the scan)', value: fmtMs(warm.cpuMs - indexCheck.cpuMs) },
    );
    rows.push(...coldPhases(work, args, cache, 5));
    // The yardstick of issues 11 and 25: on the same work (every file in full), a cold pack at most half of Repomix's time.
    const fullArgs = ['--dir', dir, 'pack', '--budget', '100000000', '--out', join(work, 'bundle-full.md')];
    rows.push(...coldPhases(work, fullArgs, cache, 5).map((row) => ({ ...row, label: row.label.replace('cold pack', 'cold pack, every file') })));
    rows.push(...repomixRows(work, dir, [process.execPath, BIN, ...fullArgs], [process.execPath, BIN, ...args], () => rmSync(cache, { recursive: true, force: true })));

    // A warm run must not load the tokenizer: count js-tiktoken modules in require.cache at exit. The cold
    // rows above emptied the cache, so one run fills it first.
    timeWithCpu(work, [BIN, ...args], 1);
    const probe = join(work, 'probe.cjs');
    writeFileSync(probe, "process.on('exit', () => process.stderr.write('tiktoken-modules=' + Object.keys(require.cache).filter((k) => k.includes('js-tiktoken')).length + '\\n'));\n");
    const run = spawnSync(process.execPath, [BIN, '--json', ...args], { env: { ...process.env, NODE_OPTIONS: `--require ${probe}` }, encoding: 'utf8', maxBuffer: 1 << 30 });
    const modules = Number(/tiktoken-modules=(\d+)/.exec(run.stderr)?.[1] ?? -1);
    const tokenizer = JSON.parse(run.stdout).tokenizer as { loaded: boolean; cacheHits: number; cacheMisses: number };
    rows.push({
      label: 'warm pack: tokenizer modules loaded (require.cache / --json)',
      value: `${modules} / ${tokenizer.loaded}`,
      goal: '0 / false',
      ok: modules === 0 && !tokenizer.loaded,
      data: { modules, ...tokenizer },
    });
    return rows;
  },
};

export default section;
