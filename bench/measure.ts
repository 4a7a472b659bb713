import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stateDir } from '../src/kernel/state/folder.js';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = join(REPO, 'bin/memctx.js');

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export interface Timed {
  medianMs: number;
  runsMs: number[];
}

/** Wall time of a whole process, `runs` times; the median is what to quote on a shared machine. */
export function timeProcess(args: string[], options: { cwd?: string; input?: string; runs?: number; env?: NodeJS.ProcessEnv; before?: () => void } = {}): Timed {
  const runsMs: number[] = [];
  for (let i = 0; i < (options.runs ?? 5); i++) {
    options.before?.();
    const start = process.hrtime.bigint();
    const result = spawnSync(process.execPath, args, { cwd: options.cwd, input: options.input ?? '', env: { ...process.env, NO_COLOR: '1', ...options.env }, maxBuffer: 1 << 30 });
    runsMs.push(Number(process.hrtime.bigint() - start) / 1e6);
    if (result.status !== 0 && result.status !== 1) {
      throw new Error(`benchmark command failed (${result.status}): ${args.join(' ')}\n${result.stderr}`);
    }
  }
  return { medianMs: median(runsMs), runsMs };
}

/** `memctx ARGS` as a timed process. */
export function timeMemctx(args: string[], options: Parameters<typeof timeProcess>[1] = {}): Timed {
  return timeProcess([BIN, ...args], options);
}

/** The floor: a Node process that only globs the .md files under dir and reads each one. */
export function timeReadFloor(dir: string, runs = 5): Timed {
  const script = `
    const fg = require(${JSON.stringify(join(REPO, 'node_modules/fast-glob'))});
    const fs = require('fs');
    let bytes = 0;
    for (const p of fg.sync('**/*.md', { cwd: ${JSON.stringify(dir)}, absolute: true })) bytes += fs.readFileSync(p, 'utf8').length;
    if (bytes < 0) console.log(bytes);`;
  return timeProcess(['-e', script], { runs });
}

/** Time a function in this process. */
export function timeFn(fn: () => unknown, runs = 5): Timed {
  const runsMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    fn();
    runsMs.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return { medianMs: median(runsMs), runsMs };
}

export const fmtMs = (ms: number) => `${ms.toFixed(0)} ms`;
export const fmtRatio = (x: number) => `${x.toFixed(2)}×`;

/** One Node process's wall time and CPU time (user + system of the process, reported at its exit). */
export interface NodeRun {
  wallMs: number;
  cpuMs: number;
}

let probeFile: string | undefined;

/** A preload script that prints the process's CPU time to stderr at exit (`cpu-ms=…`). */
export function cpuProbe(): string {
  if (!probeFile) {
    probeFile = join(REPO, 'bench/out/cpu-probe.cjs');
    mkdirSync(dirname(probeFile), { recursive: true });
    writeFileSync(probeFile, "process.on('exit', () => { const u = process.cpuUsage(); process.stderr.write('\\ncpu-ms=' + (u.user + u.system) / 1000 + '\\n'); });\n");
  }
  return probeFile;
}

let answerProbeFile: string | undefined;

/**
 * cpuProbe, plus the process's CPU time when stdout first gets a line matching /"id":2[,}]/ (`answer-cpu-ms=…`):
 * `memctx mcp` answers its first tools/list and goes on loading the SDK, so its exit comes later. It sees
 * writes through `fs.writeSync(1, …)` and through `process.stdout` (hooked when first made, not made here).
 */
export function answerCpuProbe(): string {
  if (!answerProbeFile) {
    answerProbeFile = join(REPO, 'bench/out/answer-cpu-probe.cjs');
    mkdirSync(dirname(answerProbeFile), { recursive: true });
    writeFileSync(answerProbeFile, `${[
      "const fs = require('fs');",
      'let at;',
      "const seen = (chunk) => { if (at === undefined && /\"id\":2[,}]/.test(String(chunk))) { const u = process.cpuUsage(); at = (u.user + u.system) / 1000; } };",
      'const writeSync = fs.writeSync;',
      'fs.writeSync = function (fd, buffer, ...rest) { const n = writeSync.call(this, fd, buffer, ...rest); if (fd === 1) seen(buffer); return n; };',
      "const stdout = Object.getOwnPropertyDescriptor(process, 'stdout');",
      "Object.defineProperty(process, 'stdout', { configurable: true, enumerable: stdout.enumerable, get() {",
      "  const stream = stdout.get.call(process); Object.defineProperty(process, 'stdout', { configurable: true, enumerable: stdout.enumerable, value: stream });",
      '  const write = stream.write; stream.write = function (chunk, ...rest) { const ok = write.call(this, chunk, ...rest); seen(chunk); return ok; }; return stream; } });',
      "process.on('exit', () => { const u = process.cpuUsage(); process.stderr.write('\\ncpu-ms=' + (u.user + u.system) / 1000 + '\\nanswer-cpu-ms=' + at + '\\n'); });",
    ].join('\n')}\n`);
  }
  return answerProbeFile;
}

/** The environment most users start Node with: this machine's NODE_EXTRA_CA_CERTS makes every start parse a certificate bundle. */
export function plainEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...extra };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

/** Run `node ARGS` once; throws unless it exits 0 (or 1 with `allowProblems`). */
export function runNode(args: string[], options: { cwd?: string; input?: string; env?: NodeJS.ProcessEnv; allowProblems?: boolean } = {}): NodeRun & { stdout: string } {
  const env = options.env ?? plainEnv();
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { cwd: options.cwd, input: options.input ?? '', env: { ...env, NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} --require ${cpuProbe()}`.trim() }, encoding: 'utf8', maxBuffer: 1 << 30 });
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0 && !(options.allowProblems && result.status === 1)) {
    throw new Error(`benchmark command failed (${result.status}): node ${args.join(' ')}\n${result.stderr}`);
  }
  const cpuMs = Number(/cpu-ms=([\d.]+)/.exec(result.stderr)?.[1] ?? Number.NaN);
  return { wallMs, cpuMs, stdout: result.stdout };
}

/** Medians of a list of runs. */
export function medians(runs: NodeRun[]): { medianMs: number; cpuMs: number; runsMs: number[]; cpuRunsMs: number[] } {
  return { medianMs: median(runs.map((r) => r.wallMs)), cpuMs: median(runs.map((r) => r.cpuMs)), runsMs: runs.map((r) => r.wallMs), cpuRunsMs: runs.map((r) => r.cpuMs) };
}

/** The state folder (caches, lock, flush log) the memctx runs of this bench use for a memory directory. */
export function stateFolder(memoryRoot: string): string {
  const dir = stateDir(memoryRoot, { always: true });
  if (dir === undefined) throw new Error(`no state folder for ${memoryRoot}`);
  return dir;
}
