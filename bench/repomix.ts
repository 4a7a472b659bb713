/**
 * Repomix as a yardstick for `pack`: a pinned version, installed on demand under bench/out/ (git-ignored;
 * never a dependency of memctx), run on the same files as a cold `memctx pack` doing the same work.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fmtMs, fmtRatio, median, plainEnv, REPO } from './measure.js';
import type { BenchRow } from './run.js';

/** The newest Repomix release. Its package asks for Node 22 but it runs on Node 20 (npm only warns). */
export const REPOMIX_VERSION = '1.18.1';

/** The Repomix CLI script, installing it into bench/out/ first if needed; or why it cannot be. */
export function installRepomix(): { bin: string } | { reason: string } {
  const prefix = join(REPO, 'bench/out', `repomix-${REPOMIX_VERSION}`);
  const bin = join(prefix, 'node_modules/repomix/bin/repomix.cjs');
  if (existsSync(bin)) return { bin };
  mkdirSync(prefix, { recursive: true });
  process.stderr.write(`bench: installing repomix@${REPOMIX_VERSION} into ${prefix}…\n`);
  const npm = spawnSync('npm', ['install', '--prefix', prefix, `repomix@${REPOMIX_VERSION}`, '--no-audit', '--no-fund', '--no-save', '--loglevel=error', '--fetch-retries=1'], {
    encoding: 'utf8',
    timeout: 180_000,
    shell: process.platform === 'win32',
  });
  if (existsSync(bin)) return { bin };
  const why = npm.error?.message ?? (npm.stderr.trim().split('\n').find((line) => /err/i.test(line)) || `npm exited with ${npm.status}`);
  return { reason: why };
}

interface TreeTime {
  wallMs: number;
  /** User + system time of the command and every process it started (NaN where bash is missing). */
  cpuMs: number;
}

/** One run of a command through bash, whose `times` reports the CPU time of all its waited-for descendants. */
function timeTree(args: string[], cwd: string): TreeTime {
  const start = process.hrtime.bigint();
  const run = spawnSync('bash', ['-c', '"$@" >/dev/null; status=$?; times; exit $status', 'bench', ...args], {
    cwd,
    encoding: 'utf8',
    env: plainEnv(),
    maxBuffer: 1 << 30,
  });
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  if (run.status !== 0) throw new Error(`benchmark command failed (${run.status}): ${args.join(' ')}\n${run.stderr}`);
  // `times` prints the shell's own user/sys line, then its children's.
  const children = /(\d+)m([\d.]+)s\s+(\d+)m([\d.]+)s\s*$/.exec(run.stdout.trim());
  const cpuMs = children ? (Number(children[1]) * 60 + Number(children[2]) + Number(children[3]) * 60 + Number(children[4])) * 1000 : Number.NaN;
  return { wallMs, cpuMs };
}

const summary = (runs: TreeTime[]) => ({ medianMs: median(runs.map((r) => r.wallMs)), cpuMs: median(runs.map((r) => r.cpuMs)), runsMs: runs.map((r) => r.wallMs), cpuRunsMs: runs.map((r) => r.cpuMs) });

/**
 * Cold `memctx pack` against Repomix on the same .md files, the runs interleaved so that load on a
 * shared machine falls on both alike. The same work: memctx writes every file in full (`fullPack`
 * has a budget no bundle reaches) and counts its tokens and checks them for secrets, as Repomix does
 * with its defaults (token counting, secret check, XML output written to a file), reading only the
 * .md files (not the old .memctx cache folder), not sorting by git history and ignoring .gitignore (the bench
 * corpus lies in an ignored folder). A second Repomix run skips its secret check; memctx's budgeted
 * pack (`budgetPack`) is its own figure, not a comparison.
 */
export function repomixRows(work: string, dir: string, fullPack: string[], budgetPack: string[], clearCache: () => void, runs = 7): BenchRow[] {
  const repomix = installRepomix();
  if ('reason' in repomix) {
    return [{ label: `Repomix ${REPOMIX_VERSION} not installed (${repomix.reason.slice(0, 60)}): no comparison`, value: 'n/a', data: { reason: repomix.reason } }];
  }
  const output = join(work, 'repomix-output.xml');
  const base = [process.execPath, repomix.bin, dir, '--include', '**/*.md', '--output', output, '--quiet', '--no-git-sort-by-changes', '--no-gitignore'];
  const noSecrets = [...base, '--no-security-check'];
  const load = loadavg()[0];
  const pack: TreeTime[] = [];
  const budgeted: TreeTime[] = [];
  const full: TreeTime[] = [];
  const light: TreeTime[] = [];
  timeTree(base, work); // warm the disk cache for Repomix's own modules
  for (let i = 0; i < runs; i++) {
    clearCache();
    pack.push(timeTree(fullPack, work));
    full.push(timeTree(base, work));
    light.push(timeTree(noSecrets, work));
    clearCache();
    budgeted.push(timeTree(budgetPack, work));
  }
  rmSync(output, { force: true });
  const p = summary(pack);
  const b = summary(budgeted);
  const f = summary(full);
  const l = summary(light);
  const loadNote = `1-min load ${load.toFixed(1)}→${loadavg()[0].toFixed(1)} on ${cpus().length} cores`;
  const both = (t: { medianMs: number; cpuMs: number }) => `${fmtMs(t.medianMs)} (cpu ${fmtMs(t.cpuMs)})`;
  const wall = p.medianMs / f.medianMs;
  const cpu = p.cpuMs / f.cpuMs;
  return [
    { label: `Repomix ${REPOMIX_VERSION}, every file (defaults: tokens + secret check)`, value: both(f), data: f },
    { label: `Repomix ${REPOMIX_VERSION}, every file, --no-security-check`, value: both(l), data: l },
    { label: 'memctx pack, every file in full, cold, interleaved', value: both(p), data: { ...p, load: [load, loadavg()[0]] } },
    { label: `same work: cold pack / Repomix, wall (cpu); ${loadNote}`, value: `${fmtRatio(wall)} (${fmtRatio(cpu)})`, goal: '≤ 0.5× both', ok: wall <= 0.5 && cpu <= 0.5 },
    { label: 'same work: cold pack / Repomix --no-security-check, wall (cpu)', value: `${fmtRatio(p.medianMs / l.medianMs)} (${fmtRatio(p.cpuMs / l.cpuMs)})` },
    { label: 'memctx pack, budgeted (its own figure, not the same work), cold', value: both(b), data: b },
  ];
}
