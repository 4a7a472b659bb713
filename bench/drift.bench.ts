/**
 * Drift (issue 35), on memctx's own history: memories recreated as of an old commit, each naming one
 * file of that commit in backticks with `verified:` that commit, then linted at HEAD. Figures: the share
 * of memories whose file changed that lint reports, false reports on the others, the speed of lint on
 * 2,000 memories with and without content/drifted, and duplicates refused at write time on the lint
 * benchmark's known pairs.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateCorpus } from './corpus.js';
import { addNearDuplicates } from './lint.bench.js';
import { BIN, REPO, fmtMs, fmtRatio, median, timeMemctx } from './measure.js';
import { stateDir } from '../src/kernel/state/folder.js';
import type { BenchRow, BenchSection } from './run.js';
import { duplicateOf } from '../src/kernel/lint/rules/content/duplicate.js';

const git = (cwd: string, args: string[]) => {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
};

function memory(path: string, verified: string, i: number): string {
  return `---\nname: note ${i}\ndescription: what ${path} does\ntype: project\nverified: ${verified}\n---\n\nThe code for this lives in \`${path}\`; see there before changing it.\n`;
}

/**
 * Median wall and CPU time of `memctx ARGS` in cwd: CPU is the process's own plus the git processes it
 * waited for (Linux's cutime/cstime), the steadier figure on a shared machine; worker threads (drift's git log) are in the process's own, counted once at its exit.
 */
function timeWithCpu(args: string[], cwd: string, work: string, before?: () => void): { medianMs: number; cpuMs: number } {
  const cpuFile = join(work, 'cpu.jsonl');
  const preload = join(work, 'cpu.cjs');
  writeFileSync(
    preload,
    `if (require('worker_threads').isMainThread) process.on('exit', () => { const u = process.cpuUsage(); const f = require('fs').readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' '); const tick = 10; require('fs').appendFileSync(${JSON.stringify(cpuFile)}, JSON.stringify({ ms: (u.user + u.system) / 1000 + (Number(f[13]) + Number(f[14])) * tick }) + '\\n'); });\n`,
  );
  rmSync(cpuFile, { force: true });
  const timed = timeMemctx(args, { cwd, runs: 5, env: { NODE_OPTIONS: `--require ${preload}` }, before });
  const cpu = readFileSync(cpuFile, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { ms: number }).ms);
  return { medianMs: timed.medianMs, cpuMs: median(cpu) };
}

/** content/drifted's findings by memory file. */
function driftedFiles(repo: string, config?: string): Set<string> {
  const r = spawnSync(process.execPath, [BIN, 'lint', '--format', 'json', ...(config ? ['--config', config] : [])], { cwd: repo, encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, NO_COLOR: '1' } });
  const out = JSON.parse(r.stdout) as { filePath: string; messages: { ruleId: string }[] }[];
  return new Set(out.filter((f) => f.messages.some((m) => m.ruleId === 'content/drifted')).map((f) => f.filePath.slice(f.filePath.lastIndexOf('/') + 1)));
}

/** Memories for the files of `commit` (at most `max`), verified at it; returns each memory's file. */
function writeMemories(repo: string, commit: string, max: number): Map<string, string> {
  const dir = join(repo, '.memory');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = git(repo, ['ls-tree', '-r', '--name-only', commit]).split('\n').filter((f) => /\.(ts|mjs|js|json|md)$/.test(f) && !f.startsWith('.memory/'));
  const named = new Map<string, string>();
  for (let i = 0; i < Math.min(max, max === Number.MAX_SAFE_INTEGER ? files.length : max) && files.length; i++) {
    const path = files[i % files.length];
    const name = `note_${String(i).padStart(5, '0')}.md`;
    writeFileSync(join(dir, name), memory(path, commit, i));
    named.set(name, path);
  }
  writeFileSync(join(dir, 'MEMORY.md'), '# Memory\n');
  return named;
}

function replay(repo: string): BenchRow[] {
  const chain = git(repo, ['rev-list', '--first-parent', 'HEAD']).split('\n').filter(Boolean);
  const old = chain[Math.floor(chain.length * 0.6)];
  const named = writeMemories(repo, old, Number.MAX_SAFE_INTEGER);
  const touched = new Set(git(repo, ['log', '--name-only', '--no-renames', '--format=', `${old}..HEAD`]).split('\n').filter(Boolean));
  const reported = driftedFiles(repo);
  let changed = 0;
  let caught = 0;
  let falseReports = 0;
  for (const [name, path] of named) {
    if (touched.has(path)) {
      changed++;
      if (reported.has(name)) caught++;
    } else if (reported.has(name)) falseReports++;
    if (process.env.DRIFT_BENCH_MISSES && touched.has(path) && !reported.has(name)) console.error(`missed ${name}: ${path}`);
  }
  const commits = Number(git(repo, ['rev-list', '--count', `${old}..HEAD`]).trim());
  return [
    { label: `replay: ${named.size} memories as of ${old.slice(0, 7)}, ${commits} commits since: changed ones reported`, value: `${caught}/${changed}`, goal: '100%', ok: caught === changed, data: { changed, caught, memories: named.size, commits } },
    { label: 'replay: false drift reports on unchanged files', value: String(falseReports), goal: '0', ok: falseReports === 0, data: { falseReports } },
  ];
}

function speed(repo: string, work: string): BenchRow[] {
  const root = git(repo, ['rev-list', '--max-parents=0', 'HEAD']).trim().split('\n')[0];
  const first = git(repo, ['rev-list', '--reverse', 'HEAD']).split('\n')[25];
  const named = writeMemories(repo, first, 2000);
  const off = join(work, 'no-drift.json');
  writeFileSync(off, JSON.stringify({ rules: { 'content/drifted': 'off' } }));
  const commits = Number(git(repo, ['rev-list', '--count', `${first}..HEAD`]).trim());
  return speedRows(repo, work, off, `${named.size} anchored memories, ${commits} commits since verified (root ${root.slice(0, 7)})`, '');
}

/**
 * lint with and without content/drifted (warm: a first lint fills the caches), wall and CPU; then cold:
 * every run at a HEAD whose log is not kept (the first lint after a commit, or in CI).
 */
function speedRows(repo: string, work: string, off: string, what: string, prefix: string): BenchRow[] {
  timeMemctx(['lint', '--format', 'json'], { cwd: repo, runs: 1 });
  const withDrift = timeWithCpu(['lint', '--format', 'json'], repo, work);
  const without = timeWithCpu(['lint', '--format', 'json', '--config', off], repo, work);
  const kept = join(stateDir(join(repo, '.memory'))!, 'drift-history.json');
  const cold = timeWithCpu(['lint', '--format', 'json'], repo, work, () => rmSync(kept, { force: true }));
  const ratio = withDrift.medianMs / without.medianMs;
  const cpuRatio = withDrift.cpuMs / without.cpuMs;
  const coldWall = cold.medianMs / without.medianMs;
  const coldCpu = cold.cpuMs / without.cpuMs;
  return [
    { label: `${prefix}lint, ${what}: wall (CPU)`, value: `${fmtMs(withDrift.medianMs)} (${fmtMs(withDrift.cpuMs)})`, data: { ...withDrift } },
    { label: `${prefix}lint without content/drifted: wall (CPU)`, value: `${fmtMs(without.medianMs)} (${fmtMs(without.cpuMs)})`, data: { ...without } },
    { label: `${prefix}lint with drift / without, wall`, value: fmtRatio(ratio), goal: '≤ 1.5×', ok: ratio <= 1.5 },
    { label: `${prefix}lint with drift / without, CPU (git included)`, value: fmtRatio(cpuRatio), goal: '≤ 1.5×', ok: cpuRatio <= 1.5 },
    { label: `${prefix}lint with drift, its git log not kept (cold): wall (CPU)`, value: `${fmtMs(cold.medianMs)} (${fmtMs(cold.cpuMs)})`, data: { ...cold } },
    { label: `${prefix}cold lint with drift / without, wall`, value: fmtRatio(coldWall), goal: '≤ 1.5×', ok: coldWall <= 1.5 },
    { label: `${prefix}cold lint with drift / without, CPU (git included)`, value: fmtRatio(coldCpu), goal: '≤ 1.5×', ok: coldCpu <= 1.5 },
  ];
}

/**
 * The issue's scale: 2,000 memories, each anchored to one of 2,000 files and verified at the first
 * commit, then 10,000 commits (built with git fast-import), each changing three of the files.
 */
function synthetic(work: string): BenchRow[] {
  const repo = join(mkdtempSync(join(tmpdir(), 'memctx-drift-10k-')), 'repo');
  mkdirSync(repo, { recursive: true });
  try {
    git(repo, ['init', '-q', '-b', 'main']);
    const files = 2000;
    const commits = 10_000;
    const file = (i: number) => `src/m${Math.floor(i / 100)}/mod_${String(i).padStart(4, '0')}.ts`;
    const blob = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
    const parts: string[] = [];
    const commit = (n: number, subject: string, changes: string[]) => {
      parts.push(`commit refs/heads/main\nmark :${n}\ncommitter Bench <bench@example.com> ${1_700_000_000 + n} +0000\n${blob(subject)}${n > 1 ? `from :${n - 1}\n` : ''}${changes.join('')}\n`);
    };
    commit(1, 'code', Array.from({ length: files }, (_, i) => `M 100644 inline ${file(i)}\n${blob(`export const v${i} = 0;`)}`));
    // A fixed sequence: commit n changes files (n * 7 + k * 613) mod 2000, k = 0..2.
    for (let n = 2; n <= commits + 1; n++) commit(n, `change ${n}`, [0, 1, 2].map((k) => `M 100644 inline ${file((n * 7 + k * 613) % files)}\n${blob(`export const v = ${n};`)}`));
    const imported = spawnSync('git', ['fast-import', '--quiet'], { cwd: repo, input: parts.join(''), encoding: 'utf8', maxBuffer: 1 << 28 });
    if (imported.status !== 0) throw new Error(`git fast-import: ${imported.stderr}`);
    git(repo, ['checkout', '-q', '-f', 'main']);
    const first = git(repo, ['rev-list', '--max-parents=0', 'HEAD']).trim();
    mkdirSync(join(repo, '.memory'));
    for (let i = 0; i < files; i++) writeFileSync(join(repo, '.memory', `note_${String(i).padStart(5, '0')}.md`), memory(file(i), first, i));
    writeFileSync(join(repo, '.memory', 'MEMORY.md'), '# Memory\n');
    const off = join(work, 'no-drift.json');
    writeFileSync(off, JSON.stringify({ rules: { 'content/drifted': 'off' } }));
    const reported = driftedFiles(repo).size;
    const rows = speedRows(repo, work, off, `${files} anchored memories, ${commits} commits`, 'synthetic: ');
    // after a commit: the log kept for the previous HEAD, and one new commit on top of it (the first lint after each commit)
    let next = commits + 2;
    const added = timeWithCpu(['lint', '--format', 'json'], repo, work, () => {
      writeFileSync(join(repo, file(next % files)), `export const v = ${next};\n`);
      git(repo, ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', 'commit', '-q', '-am', `change ${next++}`]);
    });
    const without = rows[1].data as { medianMs: number; cpuMs: number };
    return [
      { label: `synthetic: ${files} memories, ${commits} commits since verified: drifted reported`, value: `${reported}/${files}`, goal: '100%', ok: reported === files, data: { reported, files, commits } },
      ...rows,
      { label: 'synthetic: lint with drift, one commit since the kept log: wall (CPU); CPU / without', value: `${fmtMs(added.medianMs)} (${fmtMs(added.cpuMs)}); ${fmtRatio(added.cpuMs / without.cpuMs)}`, data: { ...added } },
    ];
  } finally {
    rmSync(join(repo, '..'), { recursive: true, force: true });
  }
}

async function duplicates(work: string): Promise<BenchRow[]> {
  const dir = join(work, 'dups/.memory');
  const files = 2000;
  const dups = 40;
  generateCorpus(dir, files - dups, { seed: 3 });
  addNearDuplicates(dir, files - dups, dups);
  const { scanMemoryDir } = await import('../src/kernel/store/scan.js');
  const all = scanMemoryDir(dir).files;
  const pairs = all.filter((f) => f.path.startsWith('dup_'));
  let refused = 0;
  for (const dup of pairs) {
    // dup_NNNNN.md copies note_NNNNN.md (in tasks/ for every tenth).
    const found = duplicateOf(dup.body, all.filter((f) => f !== dup), 0.85);
    if (found && found.path.endsWith(dup.path.replace('dup_', 'note_'))) refused++;
  }
  const twins = new Set(pairs.map((d) => d.path.replace('dup_', 'note_')));
  const distinct = all.filter((f) => !f.path.startsWith('dup_') && !twins.has(f.path.slice(f.path.lastIndexOf('/') + 1))).slice(0, 200);
  let falseRefusals = 0;
  for (const file of distinct) if (duplicateOf(file.body, all.filter((f) => f !== file), 0.85)) falseRefusals++;
  return [
    { label: `duplicates refused at write, lint bench's ${pairs.length} known pairs`, value: `${refused}/${pairs.length}`, goal: '≥ 95%', ok: refused >= 0.95 * pairs.length, data: { refused, pairs: pairs.length } },
    { label: `false refusals on ${distinct.length} distinct memories`, value: String(falseRefusals), goal: '0', ok: falseRefusals === 0, data: { falseRefusals } },
  ];
}

const section: BenchSection = {
  name: 'drift',
  async run(work) {
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    // The clone goes outside the repository (tsc, eslint and vitest would see its sources under bench/out).
    const repo = join(mkdtempSync(join(tmpdir(), 'memctx-drift-')), 'memctx');
    git(work, ['clone', '-q', REPO, repo]);
    try {
      return [...replay(repo), ...speed(repo, work), ...synthetic(work), ...(await duplicates(work))];
    } finally {
      rmSync(join(repo, '..'), { recursive: true, force: true });
    }
  },
};

export default section;
