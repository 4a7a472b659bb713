/**
 * How well memory files match a query (a `pack --task` or a `search`): BM25F over name (with the
 * file's path), description, tags and body, each score divided by the query's best so it runs 0-1.
 */
import { queryTerms } from './analyse.js';
import { bm25, fieldBag, type FieldBag, type FieldSpec } from './bm25.js';

export interface MatchableFile {
  readonly path: string;
  readonly name: string;
  readonly description: string;
  readonly tags: readonly string[];
  readonly body: string;
  /** Each field's words counted ahead (fieldBags), null for a field matched from its text. */
  readonly bags?: readonly (FieldBag | null)[];
}

/** name + path, description, tags, body. */
const FIELDS: readonly FieldSpec[] = [
  { weight: 3, b: 0.3 },
  { weight: 2.5, b: 0.3 },
  { weight: 2, b: 0 },
  { weight: 1, b: 0.75 },
];

export interface Relevance {
  /** The query's terms; empty when it has none worth matching (only stopwords or punctuation). */
  terms: string[];
  /** Per file, 0-1: its BM25F score over the best file's. */
  scores: Float64Array;
  /** Per file, 0-1: the share of the query's weight it matches. */
  coverage: Float64Array;
  /** Each term's idf over these files. */
  idf: Float64Array;
  /** Per file and term (file * terms + term): 1 when the file holds the term. */
  matched: Uint8Array;
}

function fieldText(file: MatchableFile, field: number): string {
  if (field === 0) return `${file.name}\n${file.path.replace(/\.md$/i, '')}`;
  if (field === 1) return file.description;
  if (field === 2) return file.tags.join(' ');
  return file.body;
}

/** Each field's bag, kept with a cached file so a later query reads no text. */
export function fieldBags(file: MatchableFile): (FieldBag | null)[] {
  return FIELDS.map((_, f) => fieldBag(fieldText(file, f)) ?? null);
}

export function relevance(files: readonly MatchableFile[], query: string): Relevance {
  const terms = queryTerms(query);
  const result = bm25({ terms, fields: FIELDS, count: files.length, text: (d, f) => fieldText(files[d], f), bag: (d, f) => files[d].bags?.[f] ?? undefined });
  const scores = result.best > 0 ? result.scores.map((s) => s / result.best) : result.scores;
  return { terms, scores, coverage: result.coverage, idf: result.idf, matched: result.matched };
}
