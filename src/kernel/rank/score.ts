/**
 * Design §5 scoring: three capped sub-scores whose sum is the file's score (0-100).
 * Pure: the clock comes in as `now`.
 */
import type { PackFile } from './types.js';
import { isResolvedStatus } from '../store/schema.js';
import { linkGraph } from './links.js';
import { fileTimeMs } from '../lifecycle/age.js';
import { taskScores, type TaskScores } from './task.js';
import { hasMarkers } from './markers.js';
import { TASK_MATCH } from './task.js';

const RELEVANCE_CAP = 50;
const DEPENDENCY_CAP = 20;
/** Score points and the share of task relevance a drifted memory gives up. */
export const DRIFT_PENALTY = 5;
const DRIFT_TASK_FACTOR = 0.9;

export interface ScoreOptions {
  now: Date;
  /** `--task TEXT`. */
  task?: string;
  /** Paths of memory files treated as active (`--focus`). */
  focus?: readonly string[];
  /** Superseded paths and why (lifecycle/supersede.ts). */
  superseded?: ReadonlyMap<string, string>;
  /** The link graph when already computed (links.ts linkGraph). */
  graph?: ReadonlyMap<string, ReadonlySet<string>>;
  /** The task's scores when already computed (taskScores, with the files' texts for passages). */
  taskScores?: TaskScores;
  /** Paths ranked last without a task and why: expired, resolved, duplicate (demotions). */
  demoted?: ReadonlyMap<string, string>;
  /** Paths whose code changed since they were verified, with one line of warning (kernel/drift/check.ts packDriftDetails). */
  drifted?: ReadonlyMap<string, string>;
}

export interface FileScore {
  path: string;
  relevance: number;
  recency: number;
  dependency: number;
  /** relevance + recency + dependency, 0-100. */
  score: number;
  /** Task relevance, 0-1: the file's own BM25F match, raised by links to matched files (0 without a task). */
  task: number;
  /** Why it is not current ("superseded by PATH", "status: superseded"): never packed in full. */
  superseded?: string;
  /** Why it ranks last ("expired 2026-01-01", "status: resolved", "duplicate of PATH"). */
  demoted?: string;
  /** What changed in the code it names since it was verified, and how to check: said in the bundle. */
  drifted?: string;
  /** Why the file scored: task, recent, unresolved, core, reference, active, linked-from-active, second-degree, links-to-active. */
  reasons: string[];
}

const HOUR = 3_600_000;

/** The most recency points (a file changed within the hour). */
export const RECENCY_MAX = 30;

/** Design §5: within 1 h 30 points, 4 h 20, 24 h 10, 7 days 5, older 0. */
export function recencyScore(file: PackFile, now: Date): number {
  const age = now.getTime() - fileTimeMs(file);
  if (age <= HOUR) return RECENCY_MAX;
  if (age <= 4 * HOUR) return 20;
  if (age <= 24 * HOUR) return 10;
  if (age <= 7 * 24 * HOUR) return 5;
  return 0;
}

export function isOpenIssue(file: PackFile): boolean {
  return file.kind === 'issue' && !isResolvedStatus(file.status);
}

function isUnresolved(file: PackFile): boolean {
  return isOpenIssue(file) || (file.markers ?? hasMarkers(file.body));
}

function isCore(file: PackFile): boolean {
  return file.kind === 'decision' || file.importance >= 8 || file.pinned;
}

/** The five most recently updated files (newest first, ties by path). */
function mostRecent(files: readonly PackFile[], n: number): Set<string> {
  const newer = (a: { t: number; path: string }, b: { t: number; path: string }) => b.t - a.t || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  const top: { t: number; path: string }[] = [];
  for (const file of files) {
    const entry = { t: fileTimeMs(file), path: file.path };
    if (top.length === n && newer(entry, top[n - 1]) >= 0) continue;
    top.push(entry);
    top.sort(newer);
    if (top.length > n) top.pop();
  }
  return new Set(top.map((e) => e.path));
}

function dependencyScores(files: readonly PackFile[], active: Set<string>, graph: ReadonlyMap<string, ReadonlySet<string>>): Map<string, { points: number; reason?: string }> {
  // direct: files an active file links to, with the active files linking to each.
  const direct = new Map<string, Set<string>>();
  for (const a of active) {
    for (const target of graph.get(a) ?? []) {
      const from = direct.get(target);
      if (from) from.add(a);
      else direct.set(target, new Set([a]));
    }
  }
  // second degree: a → mid → target, for some active a other than the target itself.
  const second = new Set<string>();
  for (const [mid, from] of direct) {
    for (const target of graph.get(mid) ?? []) if (from.size > 1 || !from.has(target)) second.add(target);
  }
  // Only files with points get an entry (the caller reads a missing one as 0): no object per file.
  const result = new Map<string, { points: number; reason?: string }>();
  for (const file of files) {
    const points = direct.has(file.path) ? 20 : linksTo(graph.get(file.path), active) ? 15 : second.has(file.path) ? 10 : 0;
    if (points > 0) result.set(file.path, { points: Math.min(DEPENDENCY_CAP, points), reason: DEPENDENCY_REASONS[points] });
  }
  return result;
}

/** A file's dependency when it has no points. */
const NO_DEPENDENCY: { points: number; reason?: string } = { points: 0 };

/** The reason for each degree's dependency points. */
const DEPENDENCY_REASONS: Record<number, string> = { 20: 'linked-from-active', 15: 'links-to-active', 10: 'second-degree' };

/** Whether some of the targets is active. */
function linksTo(targets: ReadonlySet<string> | undefined, active: ReadonlySet<string>): boolean {
  if (targets) for (const target of targets) if (active.has(target)) return true;
  return false;
}

/** Score every file (same order as given). */
export function scoreFiles(files: readonly PackFile[], options: ScoreOptions): FileScore[] {
  const recent = mostRecent(files, 5);
  // The links are found only when needed: with no active file, no file has dependency points.
  let graph = options.graph;
  const links = () => (graph ??= linkGraph(files));
  const task = options.taskScores ?? (options.task ? taskScores(files, options.task, links()) : undefined);
  const active = new Set(options.focus ?? []);
  if (task) files.forEach((f, i) => task.own[i] >= TASK_MATCH && active.add(f.path));
  const dependency = active.size > 0 ? dependencyScores(files, active, links()) : new Map<string, { points: number; reason?: string }>();

  return files.map((file, i) => {
    const reasons: string[] = [];
    let relevance = 0;
    const sim = task ? task.combined[i] : 0;
    const taskPoints = Math.round(25 * sim);
    if (taskPoints > 0) {
      relevance += taskPoints;
      reasons.push('task');
    }
    if (recent.has(file.path)) {
      relevance += 15;
      reasons.push('recent');
    }
    if (isUnresolved(file)) {
      relevance += 10;
      reasons.push('unresolved');
    }
    if (isCore(file)) {
      relevance += 20;
      reasons.push(file.pinned ? 'pinned' : 'core');
    }
    if (file.type === 'reference') {
      relevance += 5;
      reasons.push('reference');
    }
    relevance = Math.min(RELEVANCE_CAP, relevance);
    const recency = recencyScore(file, options.now);
    const dep = dependency.get(file.path) ?? NO_DEPENDENCY;
    if (active.has(file.path)) reasons.push('active');
    if (dep.reason) reasons.push(dep.reason);
    const superseded = options.superseded?.get(file.path);
    if (superseded) reasons.push('superseded');
    const demoted = options.demoted?.get(file.path);
    if (demoted) reasons.push('demoted');
    // Set after, not spread in: the same keys in the same order, without copying an object per file.
    const base: FileScore = { path: file.path, relevance, recency, dependency: dep.points, score: relevance + recency + dep.points, task: sim, reasons };
    if (superseded) base.superseded = superseded;
    if (demoted) base.demoted = demoted;
    return withDrift(base, options.drifted?.get(file.path));
  });
}


/** A drifted memory ranks below an equally relevant one that still holds: it gives up some score and task relevance. */
function withDrift(score: FileScore, drifted: string | undefined): FileScore {
  if (!drifted) return score;
  score.reasons.push('drifted');
  return { ...score, score: Math.max(0, score.score - DRIFT_PENALTY), task: score.task * DRIFT_TASK_FACTOR, drifted };
}

/** Task scores below this count as no match when ranking: the seed scores order those files. */
export const TASK_FLOOR = 0.05;

/**
 * Rank order: with a task, task relevance first (a file the task matches outranks every file it
 * does not); then files that are current before superseded, expired, resolved and duplicate ones;
 * then the score. Ties by path.
 */
export function compareRank(a: FileScore, b: FileScore): number {
  const ta = a.task >= TASK_FLOOR ? a.task : 0;
  const tb = b.task >= TASK_FLOOR ? b.task : 0;
  const da = a.superseded || a.demoted ? 1 : 0;
  const db = b.superseded || b.demoted ? 1 : 0;
  return tb - ta || da - db || b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}
