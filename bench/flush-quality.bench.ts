/**
 * Flush quality: the offline summary of real sessions graded against facts written by hand
 * (fixtures/transcripts/real/expected-facts.json). Each transcript goes through `flush --dry-run`
 * (the same fields, shortening and all, that a flush writes); per field: the share of expected facts
 * present, and the count of stale Next Steps, noise in Progress, transient Blockers. The figures of
 * the extractor before this work (commit 446584c, run on all eleven sessions with the fetched Claude
 * Code transcripts as re-cut then) are in flush-quality-baseline.json, printed beside when every graded
 * transcript is present.
 *
 * Only some graded transcripts are in the repository; the others are read from MEMCTX_REAL_TRANSCRIPTS
 * or ../shared/transcripts/real/ (bench/real-transcripts.ts) and skipped, with one line saying so,
 * when absent.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { flush } from '../src/commands/flush/flush.js';
import { locateTranscripts, REAL_IN_REPO, REPO_ROOT, realTranscript } from './real-transcripts.js';
import type { BenchRow, BenchSection } from './run.js';
import { labelledSessions } from './labelled-sessions.js';

export interface Expected {
  goal: string[];
  progress: string[];
  nextSteps: string[];
  stale: string[];
  noise: string[];
  decisions: string[];
  blockers: string[];
  files: string[];
  notFiles: string[];
  /** Lines that must not be in Decisions (narration). */
  notDecisions?: string[];
}

export type Fields = Record<'goal' | 'progress' | 'decisions' | 'blockers' | 'nextSteps' | 'changedFiles', string[]>;

export interface Grade {
  goal: [number, number];
  endState: [number, number];
  decisions: [number, number];
  blockers: [number, number];
  files: [number, number];
  stale: number;
  noise: number;
  transient: number;
  wrongFiles: number;
  /** Decisions lines stating a why, of all Decisions lines. */
  why: [number, number];
  wrongDecisions: number;
  missed: string[];
}

/** A why in a decision: a reason, a purpose, or the alternative it was chosen over. */
const WHY = /\b(?:because|since|so that|so (?:it|we|the|a|existing|that)|to (?:avoid|prevent|keep|ensure|match|support|make|protect|handle|let)|instead of|rather than|otherwise|which (?:avoids|prevents|keeps|means)|prevents|avoids|per (?:the )?user|for (?:\w+ness|safety|performance|speed|consistency|clarity|simplicity|compatibility|security|correctness))\b|[:—] /i;

/** Whether a Changed Files line covers a file: it names it, or it is a folder group (`dir/ (N files)`) above it. */
export function covers(line: string, file: string): boolean {
  return line === file || (line.endsWith('/') && file.startsWith(line));
}

const test = (pattern: string, line: string) => new RegExp(pattern, 'i').test(line);

/** Grade one session's fields against its expected facts. */
export function grade(fields: Fields, expected: Expected): Grade {
  const missed: string[] = [];
  const count = (name: string, patterns: string[], lines: string[]): [number, number] => {
    let found = 0;
    for (const p of patterns) {
      if (lines.some((l) => test(p, l))) found++;
      else missed.push(`${name}: /${p}/`);
    }
    return [found, patterns.length];
  };
  const progress = count('progress', expected.progress, fields.progress);
  const next = count('nextSteps', expected.nextSteps, fields.nextSteps);
  const fileOf = (line: string) => line.split(/ (?:—|\()/)[0].trim();
  const listed = fields.changedFiles.map(fileOf);
  let files = 0;
  for (const f of expected.files) {
    if (listed.some((l) => covers(l, f))) files++;
    else missed.push(`files: ${f}`);
  }
  return {
    goal: count('goal', expected.goal, fields.goal),
    endState: [progress[0] + next[0], progress[1] + next[1]],
    decisions: count('decisions', expected.decisions, fields.decisions),
    blockers: count('blockers', expected.blockers, fields.blockers),
    files: [files, expected.files.length],
    stale: fields.nextSteps.filter((l) => expected.stale.some((p) => test(p, l))).length,
    noise: fields.progress.filter((l) => expected.noise.some((p) => test(p, l))).length,
    transient: fields.blockers.filter((l) => !expected.blockers.some((p) => test(p, l))).length,
    wrongFiles: listed.filter((f) => expected.notFiles.some((p) => test(p, f))).length,
    why: [fields.decisions.filter((l) => WHY.test(l)).length, fields.decisions.length],
    wrongDecisions: fields.decisions.filter((l) => (expected.notDecisions ?? []).some((p) => test(p, l)) || /…$/.test(l)).length,
    missed,
  };
}

/** A transcript's fields as `flush --dry-run` would write them. */
export async function flushFields(work: string, file: string, path = realTranscript(file)): Promise<Fields> {
  const root = join(work, '.memory');
  const transcript = path;
  if (!transcript) throw new Error(`${file}: not present (see fixtures/transcripts/real/SOURCES.md)`);
  const values = (
    await flush(
      { template: 'session', transcript, target: 500, max: 650, encoding: 'o200k_base', dryRun: true },
      { root, cwd: work, env: {}, home: work, now: () => new Date('2026-11-24T00:00:00Z'), readStdin: async () => '' },
    )
  ).plan.values;
  const get = (key: keyof Fields) => (values[key] ?? []).filter((l) => l !== 'none recorded');
  return { goal: get('goal'), progress: get('progress'), decisions: get('decisions'), blockers: get('blockers'), nextSteps: get('nextSteps'), changedFiles: get('changedFiles') };
}

/** The hand-written expected facts, by transcript file name. */
export function expectedFacts(): Record<string, Expected> {
  return JSON.parse(readFileSync(join(REAL_IN_REPO, 'expected-facts.json'), 'utf8')).sessions as Record<string, Expected>;
}

const pct = ([a, b]: [number, number]) => (b ? `${Math.round((100 * a) / b)}% (${a}/${b})` : 'n/a');

function emptyGrade(): Grade {
  return { goal: [0, 0], endState: [0, 0], decisions: [0, 0], blockers: [0, 0], files: [0, 0], stale: 0, noise: 0, transient: 0, wrongFiles: 0, why: [0, 0], wrongDecisions: 0, missed: [] };
}

/** Grade every session and add the grades up. */
async function gradeAll(work: string, sessions: [string, string, Expected][]): Promise<{ total: Grade; perSession: Record<string, Grade> }> {
  const total = emptyGrade();
  const perSession: Record<string, Grade> = {};
  for (const [file, path, facts] of sessions) {
    // a flush that refuses (nothing to record) is graded as an empty summary
    const fields = await flushFields(work, file, path).catch((err: Error): Fields => {
      process.stderr.write(`flush-quality: ${file}: ${err.message}\n`);
      return { goal: [], progress: [], decisions: [], blockers: [], nextSteps: [], changedFiles: [] };
    });
    const g = grade(fields, facts);
    perSession[file] = g;
    for (const k of ['goal', 'endState', 'decisions', 'blockers', 'files', 'why'] as const) total[k] = [total[k][0] + g[k][0], total[k][1] + g[k][1]];
    total.stale += g.stale;
    total.noise += g.noise;
    total.transient += g.transient;
    total.wrongFiles += g.wrongFiles;
    total.wrongDecisions += g.wrongDecisions;
    if (process.env.FLUSH_QUALITY_VERBOSE) process.stderr.write(`${file}: ${g.missed.slice(0, 8).join('; ') || 'all found'}${g.missed.length > 8 ? ` and ${g.missed.length - 8} more` : ''}; stale ${g.stale}, transient ${g.transient}, why ${g.why.join('/')}, wrong decisions ${g.wrongDecisions}\n`);
  }
  return { total, perSession };
}

type Row = [string, string, string?, boolean?];

function rowsOf(total: Grade, goalLabel: string): Row[] {
  return [
    [goalLabel, pct(total.goal)],
    ['End-state facts present (Progress + Next Steps)', pct(total.endState), '≥ 95%', total.endState[0] >= 0.95 * total.endState[1]],
    ['Stale Next Steps lines', String(total.stale), '0', total.stale === 0],
    ['Noise lines in Progress', String(total.noise), '0', total.noise === 0],
    ['Expected decisions present', pct(total.decisions), '≥ 80%', total.decisions[0] >= 0.8 * total.decisions[1]],
    ['Decisions with a why', pct(total.why), '≥ 90%', total.why[0] >= 0.9 * total.why[1]],
    ['Narrated or cut Decisions lines', String(total.wrongDecisions), '0', total.wrongDecisions === 0],
    ['Transient Blockers lines', String(total.transient), '0', total.transient === 0],
    ['Changed files covered', pct(total.files), '100%', total.files[0] === total.files[1]],
    ['Files that must not be listed', String(total.wrongFiles), '0', total.wrongFiles === 0],
  ];
}

const section: BenchSection = {
  name: 'flush-quality',
  async run(work) {
    rmSync(work, { recursive: true, force: true });
    mkdirSync(join(work, '.memory'), { recursive: true });
    const all = expectedFacts();
    const { found, absent, note } = locateTranscripts(Object.keys(all));
    if (note) process.stderr.write(`flush-quality: ${note}\n`);
    const graded = Object.entries(all).filter(([file]) => found.has(file)).map(([file, facts]): [string, string, Expected] => [file, found.get(file) as string, facts]);
    // the baseline was measured on all the graded sessions: beside a subset it would compare unlike sets
    const baselinePath = join(REPO_ROOT, 'bench/flush-quality-baseline.json');
    const baseline = !absent.length && existsSync(baselinePath) ? (JSON.parse(readFileSync(baselinePath, 'utf8')) as Record<string, string>) : {};
    const real = await gradeAll(work, graded);
    const n = graded.length;
    const realRows = rowsOf(real.total, absent.length ? `Goal facts present (${n} of ${n + absent.length} sessions)` : `Goal facts present (${n} sessions)`);
    // the labelled bad inputs (bench/labelled-sessions.ts), written out as files
    const dir = join(work, 'labelled');
    mkdirSync(dir, { recursive: true });
    const labelled = Object.entries(labelledSessions()).map(([file, [text, facts]]): [string, string, Expected] => {
      writeFileSync(join(dir, file), text);
      return [file, join(dir, file), facts];
    });
    const bad = await gradeAll(work, labelled);
    const badRows = rowsOf(bad.total, `Goal facts present (${labelled.length} sessions)`).map(([label, ...rest]): Row => [`labelled bad inputs: ${label}`, ...rest]);
    return [...realRows, ...badRows].map(([label, value, goal, ok]) => ({
      label: baseline[label] !== undefined ? `${label} [before: ${baseline[label]}]` : label,
      value,
      goal,
      ok,
      data: label.startsWith('Goal') ? { perSession: real.perSession, absent } : label.startsWith('labelled bad inputs: Goal') ? { perSession: bad.perSession } : undefined,
    })) satisfies BenchRow[];
  },
};

export default section;
