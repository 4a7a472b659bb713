/**
 * Ranked search: the files `pack --task` would rank first for the same words, in the same order
 * (rank.ts: task relevance — BM25F over name, description, tags and body blended with the best
 * passage's match, raised by links to matched files — then current before superseded or demoted,
 * then the score: importance, recency, links). A hit is a file the query reaches (relevance above 0).
 * Filters choose among the ranked files; they do not change the ranking.
 * Pure: the clock, the access counts and the drift come in as arguments.
 */
import { matchesListFilters } from '../memindex/groups.js';
import type { PackFile } from './types.js';
import { fileTimeMs } from '../lifecycle/age.js';
import { queryTerms } from '../text/analyse.js';
import { rankFiles, rankOrder } from './rank.js';
import { RECENCY_MAX, type FileScore } from './score.js';

interface SearchFilters {
  type?: string;
  kind?: string;
  tag?: string;
  minImportance?: number;
  /** Only files updated at or after this time. */
  since?: Date;
}

export interface SearchOptions {
  now: Date;
  accessCount: (path: string) => number;
  limit?: number;
  filters?: SearchFilters;
  /** A file's text as on disk, for its passages (default: its body). */
  text?: (path: string) => string;
  /** Paths whose code changed since they were verified (rank.ts driftOf). */
  drifted?: ReadonlyMap<string, string>;
}

export interface SearchHit {
  path: string;
  name: string;
  description: string;
  type: string;
  kind: string | null;
  importance: number;
  updated: string | null;
  /** Text relevance as pack --task weighs it, 0-1. */
  score: number;
  /** Each factor, 0-1: text relevance, importance/10, recency points over their most, reads/10 (shown, not ranked). */
  factors: { text: number; importance: number; recency: number; access: number };
  /** Why the file is no longer current, when it is superseded. */
  superseded: string | null;
}

function matchesSearchFilters(file: PackFile, filters: SearchFilters): boolean {
  if (!matchesListFilters(file, filters)) return false;
  if (filters.minImportance !== undefined && file.importance < filters.minImportance) return false;
  if (filters.since && fileTimeMs(file) < filters.since.getTime()) return false;
  return true;
}

/** Files matching the query text (title or content), best first: pack --task's order. */
export function searchMemory(files: readonly PackFile[], query: string, options: SearchOptions): SearchHit[] {
  if (queryTerms(query).length === 0) return [];
  // Bodies are read only for the files whose passages are matched (a cached file reads its body on first use).
  let byPath: Map<string, PackFile> | undefined;
  const text = options.text ?? ((path: string) => (byPath ??= new Map(files.map((f) => [f.path, f]))).get(path)?.body ?? '');
  const { scores } = rankFiles(files, { now: options.now, task: query, text, drifted: options.drifted ?? new Map() });
  const filters = options.filters ?? {};
  const hits: SearchHit[] = [];
  // Only a file the query reaches is a hit: only those are sorted.
  for (const i of rankOrder(scores, scores.flatMap((score, k) => (score.task > 0 ? [k] : [])))) {
    if (options.limit !== undefined && hits.length >= options.limit) break;
    if (matchesSearchFilters(files[i], filters)) hits.push(hitOf(files[i], scores[i], options));
  }
  return hits;
}

function hitOf(file: PackFile, score: FileScore, options: SearchOptions): SearchHit {
  const factors = { text: score.task, importance: file.importance / 10, recency: score.recency / RECENCY_MAX, access: Math.min(options.accessCount(file.path) / 10, 1) };
  return { path: file.path, name: file.name, description: file.description, type: file.type ?? 'other', kind: file.kind ?? null, importance: file.importance, updated: file.updated ?? null, score: score.task, factors, superseded: score.superseded ?? null };
}
