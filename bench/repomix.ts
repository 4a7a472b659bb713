/**
 * Repomix as a yardstick for `pack`: a pinned version, installed on demand into a cache outside the
 * repository (never a dependency of memctx), run on the same files as a cold `memctx pack`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { cpus, homedir, loadavg } from 'node:os';
import { join } from 'node:path';
import { fmtMs, fmtRatio, median } from './measure.js';
import type { BenchRow } from './run.js';

/** The last Repomix release that runs on Node 20 (1.14.1 and later need Node 22). */
export const REPOMIX_VERSION = '1.14.0';

/** The Repomix CLI script, installing it into ~/.cache/memctx-bench first if needed; or why it cannot be. */
export function installRepomix(): { bin: string } | { reason: string } {
  const prefix = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'memctx-bench', `repomix-${REPOMIX_VERSION}`);
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
    env: { ...process.env, NO_COLOR: '1' },
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
 * shared machine falls on both alike. Repomix keeps its defaults (token counting, secret check, XML
 * output written to a file) except that it reads only the .md files (not the .memctx cache), does
 * not sort by git history and ignores .gitignore (the bench corpus lies in an ignored folder); a
 * second Repomix run also skips its secret check, since pack only checks the files it bundles.
 */
export function repomixRows(work: string, dir: string, coldPack: string[], clearCache: () => void, runs = 5): BenchRow[] {
  const repomix = installRepomix();
  if ('reason' in repomix) {
    return [{ label: `Repomix ${REPOMIX_VERSION} not installed (${repomix.reason.slice(0, 60)}): no comparison`, value: 'n/a', data: { reason: repomix.reason } }];
  }
  const output = join(work, 'repomix-output.xml');
  const base = [process.execPath, repomix.bin, dir, '--include', '**/*.md', '--output', output, '--quiet', '--no-git-sort-by-changes', '--no-gitignore'];
  const noSecrets = [...base, '--no-security-check'];
  const load = loadavg()[0];
  const pack: TreeTime[] = [];
  const full: TreeTime[] = [];
  const light: TreeTime[] = [];
  timeTree(base, work); // warm the disk cache for Repomix's own modules
  for (let i = 0; i < runs; i++) {
    clearCache();
    pack.push(timeTree(coldPack, work));
    full.push(timeTree(base, work));
    light.push(timeTree(noSecrets, work));
  }
  rmSync(output, { force: true });
  const p = summary(pack);
  const f = summary(full);
  const l = summary(light);
  const loadNote = `1-min load ${load.toFixed(1)}→${loadavg()[0].toFixed(1)} on ${cpus().length} cores`;
  const both = (t: { medianMs: number; cpuMs: number }) => `${fmtMs(t.medianMs)} (cpu ${fmtMs(t.cpuMs)})`;
  return [
    { label: `Repomix ${REPOMIX_VERSION}, same files (defaults: tokens + secret check)`, value: both(f), data: f },
    { label: `Repomix ${REPOMIX_VERSION}, same files, --no-security-check`, value: both(l), data: l },
    { label: 'memctx pack, cold, interleaved with the Repomix runs', value: both(p), data: { ...p, load: [load, loadavg()[0]] } },
    { label: `cold pack / Repomix, wall (cpu); ${loadNote}`, value: `${fmtRatio(p.medianMs / f.medianMs)} (${fmtRatio(p.cpuMs / f.cpuMs)})`, goal: '≤ 0.5×', ok: p.medianMs / f.medianMs <= 0.5 },
    { label: 'cold pack / Repomix --no-security-check, wall (cpu)', value: `${fmtRatio(p.medianMs / l.medianMs)} (${fmtRatio(p.cpuMs / l.cpuMs)})` },
  ];
}
