/**
 * Ranked search over memory files (design §5): title similarity 0.15, content similarity 0.25,
 * importance/10 × 0.25, recency 1/(1 + days/30) × 0.20, min(access_count/10, 1) × 0.15.
 * Text similarity is MiniSearch's BM25+ score, divided by the best score of the query so it runs
 * 0-1. Pure: the clock and the access counts come in as arguments.
 */
import { matchesListFilters } from '../memindex/groups.js';
import MiniSearch from 'minisearch';
import type { MemoryFile } from '../store/types.js';
import { updatedMs } from '../pack/score.js';

export const WEIGHTS = { title: 0.15, content: 0.25, importance: 0.25, recency: 0.2, access: 0.15 } as const;

export interface SearchFilters {
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
  factors: { title: number; content: number; importance: number; recency: number; access: number };
}

const DAY = 86_400_000;

export function matchesSearchFilters(file: MemoryFile, filters: SearchFilters): boolean {
  if (!matchesListFilters(file, filters)) return false;
  if (filters.minImportance !== undefined && file.importance < filters.minImportance) return false;
  if (filters.since && updatedMs(file) < filters.since.getTime()) return false;
  return true;
}

/** Scores by document index, each divided by the best, for one field group. */
function textScores(index: MiniSearch, query: string, fields: string[]): Map<number, number> {
  const results = index.search(query, {
    fields,
    combineWith: 'OR',
    prefix: (term) => term.length >= 3,
    fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
  });
  const best = results.reduce((m, r) => Math.max(m, r.score), 0);
  return new Map(results.map((r) => [r.id as number, best > 0 ? r.score / best : 0]));
}

/** Files matching the query text (title or content), best first. */
export function searchMemory(files: readonly MemoryFile[], query: string, options: SearchOptions): SearchHit[] {
  const candidates = files.filter((f) => matchesSearchFilters(f, options.filters ?? {}));
  const index = new MiniSearch<{ id: number; name: string; content: string }>({ fields: ['name', 'content'] });
  index.addAll(candidates.map((f, id) => ({ id, name: f.name, content: `${f.description}\n${f.tags.join(' ')}\n${f.body}` })));
  const title = textScores(index, query, ['name']);
  const content = textScores(index, query, ['content']);
  const hits: SearchHit[] = [];
  candidates.forEach((file, id) => {
    const t = title.get(id) ?? 0;
    const c = content.get(id) ?? 0;
    if (t === 0 && c === 0) return;
    const days = Math.max(0, (options.now.getTime() - updatedMs(file)) / DAY);
    const factors = {
      title: t,
      content: c,
      importance: file.importance / 10,
      recency: 1 / (1 + days / 30),
      access: Math.min(options.accessCount(file.path) / 10, 1),
    };
    const score = WEIGHTS.title * factors.title + WEIGHTS.content * factors.content + WEIGHTS.importance * factors.importance + WEIGHTS.recency * factors.recency + WEIGHTS.access * factors.access;
    hits.push({ path: file.path, name: file.name, description: file.description, type: file.type ?? 'other', kind: file.kind ?? null, importance: file.importance, updated: file.updated ?? null, score, factors });
  });
  hits.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return options.limit === undefined ? hits : hits.slice(0, options.limit);
}
