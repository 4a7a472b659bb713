/**
 * Transcripts: what flush reads from real sessions (fields filled, written files listed), the hook's
 * wall time on a 20 MB transcript, compact's throughput, and compact on the largest real sessions
 * (tokens saved; every collapsed output checked against the one it points to).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { compactTranscript, normalizeOutput } from '../src/kernel/capacity/compact.js';
import { transcriptFields } from '../src/commands/flush/extract.js';
import { extractFacts, readTranscript } from '../src/kernel/transcript/index.js';
import { loadTokenCounter } from '../src/kernel/tokens/index.js';
import { claudeTranscript } from './flush.bench.js';
import { generateCorpus } from './corpus.js';
import { fmtMs, median, REPO, timeMemctx, stateFolder } from './measure.js';
import type { BenchRow, BenchSection } from './run.js';

const REAL = join(REPO, 'fixtures/transcripts/real');
const FIELDS = ['goal', 'progress', 'decisions', 'blockers', 'nextSteps'] as const;

/** Collapsed outputs whose normalised text differs from the output their reference names. */
function conflated(markdown: string, byLine: Map<number, string>): { pairs: number; differ: number } {
  let pairs = 0;
  let differ = 0;
  for (const m of markdown.matchAll(/^### Tool result[^\n]*\(line (\d+)\)\n\n`{3,}\n\[same output as the .* result at line (\d+) \(occurrence \d+\)\]/gm)) {
    pairs++;
    if (normalizeOutput(byLine.get(Number(m[1])) ?? '') !== normalizeOutput(byLine.get(Number(m[2])) ?? '')) differ++;
  }
  return { pairs, differ };
}

const section: BenchSection = {
  name: 'transcripts',
  async run(work) {
    mkdirSync(work, { recursive: true });
    const rows: BenchRow[] = [];
    const touched = JSON.parse(readFileSync(join(REAL, 'files-touched.json'), 'utf8')) as Record<string, string[]>;
    const files = readdirSync(REAL).filter((f) => f.endsWith('.jsonl'));

    // 1. fields filled and files listed, sessions with at least 20 tool calls
    let filledSum = 0;
    let sessions = 0;
    let allListed = true;
    for (const name of files) {
      const t = readTranscript(readFileSync(join(REAL, name), 'utf8'));
      const calls = t.items.filter((i) => i.kind === 'tool_call').length;
      if (calls < 20) continue;
      const f = transcriptFields(t, { extract: extractFacts });
      // goal: a marked GOAL: line or the extractor's request (flush uses the latter when no goal is given)
      const filled = FIELDS.filter((k) => k !== 'goal' && f[k].length).length + (f.goal.length || f.request ? 1 : 0) + (f.files.length ? 1 : 0);
      const listed = new Set(f.files.map((x) => x.path));
      const expected = touched[name] ?? [];
      const missing = expected.filter((p) => !listed.has(p));
      if (missing.length) allListed = false;
      filledSum += filled;
      sessions++;
      const empty = [...FIELDS.filter((k) => k !== 'goal' && !f[k].length), ...(f.files.length ? [] : ['changedFiles'])];
      rows.push({
        label: `${name}: ${calls} tool calls`,
        value: `${filled}/6 fields`,
        goal: 'every written file',
        ok: missing.length === 0,
        data: { filled, empty, files: f.files.length, touched: expected.length, missing },
      });
    }
    const average = filledSum / sessions;
    rows.push({ label: `real sessions with >= 20 tool calls (${sessions}): average fields filled`, value: `${average.toFixed(2)}/6`, goal: '≥ 4 of 6', ok: average >= 4 });
    rows.push({ label: 'every written file listed, in every one of them', value: allListed ? 'yes' : 'no', goal: 'all', ok: allListed });

    // 2. flush --hook and compact on a 20 MB transcript
    const project = join(work, 'project');
    rmSync(project, { recursive: true, force: true });
    const mem = join(project, '.memory');
    generateCorpus(mem, 50, { seed: 11 });
    const big = join(work, 'session.jsonl');
    const text = claudeTranscript(project, 20 * 1024 * 1024, 9);
    writeFileSync(big, text);
    const mb = statSync(big).size / (1024 * 1024);
    const input = JSON.stringify({ session_id: 'bench', transcript_path: big, cwd: project, hook_event_name: 'SessionEnd', reason: 'other' });
    // CPU time of the process (user + sys), reported at exit by a preloaded script: on a shared,
    // loaded machine it is the steadier guide to the wall time on an idle one.
    const cpuFile = join(work, 'cpu.jsonl');
    const preload = join(work, 'cpu.cjs');
    writeFileSync(preload, `process.on('exit', () => { const u = process.cpuUsage(); require('fs').appendFileSync(${JSON.stringify(cpuFile)}, JSON.stringify({ ms: (u.user + u.system) / 1000 }) + '\\n'); });\n`);
    rmSync(cpuFile, { force: true });
    const hook = timeMemctx(['flush', '--hook'], { cwd: project, input, runs: 5, env: { NODE_OPTIONS: `--require ${preload}` }, before: () => rmSync(join(mem, 'sessions'), { recursive: true, force: true }) });
    const cpu = median(readFileSync(cpuFile, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { ms: number }).ms));
    const log = readFileSync(join(stateFolder(mem), 'flush.log'), 'utf8').trim().split('\n').pop() ?? '';
    if (!/ wrote sessions\//.test(log)) throw new Error(`flush --hook did not write a session: ${log}`);
    rows.push({ label: `flush --hook, ${mb.toFixed(1)} MB transcript: CPU time (median of 5)`, value: fmtMs(cpu), goal: '≤ 1.0 s', ok: cpu <= 1000, data: { cpuMs: cpu } });
    rows.push({ label: 'flush --hook, same: wall on this (shared) machine', value: fmtMs(hook.medianMs), data: { ...hook, loadAverage: loadavg() } });
    const compact = timeMemctx(['compact', big, '--out', join(work, 'compacted.md')], { cwd: project, runs: 3 });
    rows.push({ label: `compact, same file: wall (median of 3)`, value: fmtMs(compact.medianMs), data: { ...compact } });
    rows.push({ label: 'compact throughput', value: `${(mb / (compact.medianMs / 1000)).toFixed(1)} MB/s` });

    // 3. compact on the five largest real sessions
    const counter = await loadTokenCounter('o200k_base');
    const largest = files.map((f) => ({ f, size: statSync(join(REAL, f)).size })).sort((a, b) => b.size - a.size).slice(0, 5);
    let totalDiffer = 0;
    for (const { f } of largest) {
      const t = readTranscript(readFileSync(join(REAL, f), 'utf8'));
      const before = counter.count(compactTranscript(t, { verbatim: true }).markdown);
      const after = compactTranscript(t);
      const saved = before - counter.count(after.markdown);
      const byLine = new Map(t.items.filter((i) => i.kind === 'tool_result').map((i) => [i.line, i.text] as const));
      const check = conflated(after.markdown, byLine);
      totalDiffer += check.differ;
      rows.push({ label: `compact ${f}: tokens saved; collapsed / differing`, value: `${saved.toLocaleString('en-US')} (${((saved / before) * 100).toFixed(1)}%)`, goal: '0 differing', ok: check.differ === 0 && check.pairs === after.duplicates, data: { before, saved, duplicates: after.duplicates, checked: check.pairs, differ: check.differ, condensed: after.condensed } });
    }
    rows.push({ label: 'collapsed pairs whose texts differ after normalisation, all five', value: String(totalDiffer), goal: '0', ok: totalDiffer === 0 });
    return rows;
  },
};

export default section;
