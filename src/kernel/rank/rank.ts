/**
 * The one ranker of `pack` and `search` (design §5): the task's retrieval (task.ts), links,
 * supersession, demotions and drift feed scoreFiles, and compareRank orders the files — task
 * relevance first, then current before superseded or demoted, then the score (importance, recency,
 * links). `search` returns the files this order puts first; `pack --task` lists them in the same order.
 */
import { parseDate } from '../dates.js';
import { packDriftDetails } from '../drift/check.js';
import type { Drift } from '../drift/drift.js';
import { supersession } from '../lifecycle/supersede.js';
import { lastCommitTimes, type Env } from '../sources/git.js';
import type { LogCache } from '../sources/history.js';
import { demotions } from './demote.js';
import { linkGraph } from './links.js';
import { compareRank, scoreFiles, type FileScore } from './score.js';
import { taskScores, type TaskScores } from './task.js';
import type { PackFile } from './types.js';

export type CommitTimes = (root: string, paths: readonly string[], env: Env) => Map<string, number>;

/** Files with no date of their own take their last commit time (one `git log`), so a fresh clone does not make them new. */
export function dateByCommits(root: string, files: readonly PackFile[], env: Env, commitTimes: CommitTimes = lastCommitTimes): void {
  const undated = files.filter((f) => parseDate(f.updated) === undefined && parseDate(f.created) === undefined);
  if (undated.length === 0) return;
  const times = commitTimes(root, undated.map((f) => f.path), env);
  for (const f of undated) if (times.has(f.path)) (f as { committedMs?: number }).committedMs = times.get(f.path);
}

export interface RankOptions {
  now: Date;
  /** The task or query (with words to match: see queryTerms). */
  task?: string;
  /** --focus paths as resolved. */
  focus?: readonly string[];
  /** A file's text as packed, for its passages. */
  text: (path: string) => string;
  /** Paths whose code changed since they were verified (driftOf). */
  drifted: ReadonlyMap<string, string>;
}

export interface Ranking {
  scores: FileScore[];
  /** The task's scores and retrieval, with a task. */
  matched?: TaskScores;
  /** The link graph, when a task or focus needed it. */
  graph?: ReadonlyMap<string, ReadonlySet<string>>;
  superseded: ReadonlyMap<string, string>;
}

/** Drifted memories (git): what changed in the code each names since it was verified; `cache` keeps git's log between runs (historyCache). */
export function driftOf(root: string, files: readonly PackFile[], textOf: (path: string) => string, env: Env, cache?: LogCache): { lines: Map<string, string>; drift: Map<string, Drift> } {
  return packDriftDetails(root, files.map((f) => f.path), textOf, env, cache);
}

/** Score every file (same order as given). Pure: the drift and the dates come in already found. */
export function rankFiles(files: readonly PackFile[], options: RankOptions): Ranking {
  const { task, now } = options;
  const focused = options.focus ?? [];
  // Links count only next to files a task or --focus makes active: with neither, they are not looked for.
  const graph = task !== undefined || focused.length > 0 ? linkGraph(files) : undefined;
  const { superseded } = supersession(files);
  const matched = task === undefined ? undefined : taskScores(files, task, graph, (i) => options.text(files[i].path));
  const scores = scoreFiles(files, { now, task, focus: focused, superseded, graph, taskScores: matched, demoted: demotions(files, now), drifted: options.drifted });
  return { scores, matched, graph, superseded };
}

/** File indexes in rank order: of every file, or of `among` (sorted in place). */
export function rankOrder(scores: readonly FileScore[], among: number[] = scores.map((_, i) => i)): number[] {
  return among.sort((a, b) => compareRank(scores[a], scores[b]));
}
