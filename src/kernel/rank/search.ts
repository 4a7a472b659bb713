/**
 * Ranked search: the meaning of the query first. Text relevance is the retrieval that
 * `pack --task` uses too (search/retrieve.ts: BM25F over name, description, tags and body, blended
 * with the best passage's match), 0-1 per query; the top hits are then ordered to cover the query's
 * terms across files (diversify), so the second file of a two-part question is not pushed out by
 * near-copies of the first. importance/10, recency
 * 1/(1 + days/30) and min(access_count/10, 1) add at most 0.3 together, so they order files of
 * similar relevance and never lift a weak match over a strong one. Superseded files count half.
 * Pure: the clock and the access counts come in as arguments.
 */
import { matchesListFilters } from '../memindex/groups.js';
import type { PackFile } from './types.js';
import { fileTimeMs } from '../lifecycle/age.js';
import { diversify, retrieve } from './retrieve.js';
import { supersession } from '../lifecycle/supersede.js';

/** How many of the best-matching files have their passages matched in a search. */
const SEARCH_PASSAGE_FILES = 20;

export const WEIGHTS = { text: 0.7, importance: 0.12, recency: 0.1, access: 0.08 } as const;

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
}

export interface SearchHit {
  path: string;
  name: string;
  description: string;
  type: string;
  kind: string | null;
  importance: number;
  updated: string | null;
  /** 0-1. */
  score: number;
  /** Each factor before weighting, 0-1. */
  factors: { text: number; importance: number; recency: number; access: number };
  /** Why the file is no longer current, when it is superseded. */
  superseded: string | null;
}

const DAY = 86_400_000;

function matchesSearchFilters(file: PackFile, filters: SearchFilters): boolean {
  if (!matchesListFilters(file, filters)) return false;
  if (filters.minImportance !== undefined && file.importance < filters.minImportance) return false;
  if (filters.since && fileTimeMs(file) < filters.since.getTime()) return false;
  return true;
}

/** Files matching the query text (title or content), best first. */
export function searchMemory(files: readonly PackFile[], query: string, options: SearchOptions): SearchHit[] {
  const candidates = files.filter((f) => matchesSearchFilters(f, options.filters ?? {}));
  // Passages re-rank the best files (the same number whatever the limit, so a limit only cuts the ranking).
  const passageFiles = SEARCH_PASSAGE_FILES;
  const retrieval = retrieve(candidates, query, { text: (i) => options.text?.(candidates[i].path) ?? candidates[i].body, passageFiles });
  const text = retrieval.score;
  const { superseded } = supersession(files);
  const factorsOf = (id: number) => {
    const file = candidates[id];
    const days = Math.max(0, (options.now.getTime() - fileTimeMs(file)) / DAY);
    return {
      text: superseded.get(file.path) ? text[id] / 2 : text[id],
      importance: file.importance / 10,
      recency: 1 / (1 + days / 30),
      access: Math.min(options.accessCount(file.path) / 10, 1),
    };
  };
  // Every match is scored; only the hits returned are built.
  const scores = new Float64Array(candidates.length);
  const ids: number[] = [];
  for (let id = 0; id < candidates.length; id++) {
    if (text[id] === 0) continue;
    const factors = factorsOf(id);
    scores[id] = WEIGHTS.text * factors.text + WEIGHTS.importance * factors.importance + WEIGHTS.recency * factors.recency + WEIGHTS.access * factors.access;
    ids.push(id);
  }
  const path = (id: number) => candidates[id].path;
  ids.sort((a, b) => scores[b] - scores[a] || (path(a) < path(b) ? -1 : path(a) > path(b) ? 1 : 0));
  const ranked = diversify(ids, (id) => scores[id], (id) => retrieval.fileTerms[id], retrieval.weights);
  return (options.limit === undefined ? ranked : ranked.slice(0, options.limit)).map((id) => {
    const file = candidates[id];
    return { path: file.path, name: file.name, description: file.description, type: file.type ?? 'other', kind: file.kind ?? null, importance: file.importance, updated: file.updated ?? null, score: scores[id], factors: factorsOf(id), superseded: superseded.get(file.path) ?? null };
  });
}
