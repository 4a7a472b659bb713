import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

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
