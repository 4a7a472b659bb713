/**
 * BM25F ranking for a query over documents with weighted fields, using the analyser's terms.
 * Only the query's terms are looked for: one regular expression finds the words that start like a
 * query term, and each found word is stemmed and compared. That reads each text once without
 * tokenising all of it, which keeps `pack --task` over thousands of files within a read of them.
 */
import { isCjkChar, stem, words } from './analyse.js';

export interface FieldSpec {
  /** How much a match in this field counts against one in a field of weight 1. */
  weight: number;
  /** Length normalisation, 0 (none) to 1 (full). */
  b: number;
}

export interface Bm25Input {
  /** Distinct query terms (analyse.queryTerms). */
  terms: readonly string[];
  fields: readonly FieldSpec[];
  count: number;
  /** The text of one field of one document. */
  text(doc: number, field: number): string;
  /** The field's words as counted ahead (fieldBag), when known: then its text is not read. */
  bag?(doc: number, field: number): FieldBag | undefined;
  k1?: number;
}

export interface Bm25Result {
  /** Raw BM25F score per document. */
  scores: Float64Array;
  /** Share of the query's weight (idf) each document matches, 0-1. */
  coverage: Float64Array;
  /** The best score, 0 when nothing matched. */
  best: number;
}

const NON_ASCII = /[^\x00-\x7f]/;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A pattern finding every word that may stem to one of the terms. */
export function termPattern(terms: readonly string[]): RegExp | undefined {
  const latin: string[] = [];
  const cjk: string[] = [];
  for (const term of terms) {
    if (isCjkChar(term)) cjk.push(escape(term));
    // Porter stems can differ from their words in the last letter (happy → happi): match one less.
    else latin.push(escape(term.length >= 4 ? term.slice(0, -1) : term));
  }
  const alternatives: string[] = [];
  if (latin.length) alternatives.push(`(?<![\\p{L}\\p{N}\\p{M}])(?:${[...new Set(latin)].join('|')})[\\p{L}\\p{N}\\p{M}]*`);
  if (cjk.length) alternatives.push(...cjk);
  return alternatives.length ? new RegExp(alternatives.join('|'), 'gu') : undefined;
}

/** The prefix a word must start with to be looked at for a term (see termPattern). */
const prefixOf = (term: string) => (term.length >= 4 ? term.slice(0, -1) : term);

/** The term a found word counts for: its stem (a non-ASCII word cut to its first analyser word). */
function normalise(word: string): string {
  if (word.length <= 1) return word;
  return stem(NON_ASCII.test(word) ? (words(word)[0] ?? word) : word);
}

/**
 * A field's words counted ahead, so a later query needs no text: its length, how often each stem
 * occurs as a word starting with the stem's own prefix (as ` stem:count` pairs in one string, which
 * a cache reads back quickly), and the other words (`odd`: word, stem, count) a query term's prefix
 * may still reach. Exactly what termFrequencies would count.
 */
export interface FieldBag {
  length: number;
  stems: string;
  odd: [string, string, number][];
}

const RUN = /[\p{L}\p{N}\p{M}]+/gu;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/** The field's bag; undefined for text with Chinese or Japanese characters (matched from the text). */
export function fieldBag(text: string): FieldBag | undefined {
  if (CJK.test(text)) return undefined;
  const runs = new Map<string, number>();
  for (const m of text.toLowerCase().matchAll(RUN)) runs.set(m[0], (runs.get(m[0]) ?? 0) + 1);
  const stems = new Map<string, number>();
  const odd: FieldBag['odd'] = [];
  for (const [word, n] of runs) {
    const s = normalise(word);
    if (word.startsWith(prefixOf(s))) stems.set(s, (stems.get(s) ?? 0) + n);
    else odd.push([word, s, n]);
  }
  let pairs = '';
  for (const [s, n] of stems) pairs += ` ${s}:${n}`;
  return { length: text.length, stems: `${pairs} `, odd };
}

/** True when a value has fieldBag's shape (a cache entry read back). */
export function isFieldBag(value: unknown): value is FieldBag {
  const b = value as FieldBag;
  return !!b && typeof b.length === 'number' && typeof b.stems === 'string' && Array.isArray(b.odd) && b.odd.every((o) => Array.isArray(o) && typeof o[0] === 'string' && typeof o[1] === 'string' && typeof o[2] === 'number');
}

/** How often the bag counts a stem as a regular word. */
function stemCount(bag: FieldBag, term: string): number {
  const at = bag.stems.indexOf(` ${term}:`);
  if (at < 0) return 0;
  const n = parseInt(bag.stems.slice(at + term.length + 2, bag.stems.indexOf(' ', at + 1)), 10);
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/** termFrequencies from a bag: `prefixes` are the query's (prefixOf each term). */
function bagFrequencies(bag: FieldBag, terms: readonly string[], index: ReadonlyMap<string, number>, prefixes: readonly string[], into: Float64Array): void {
  into.fill(0);
  for (let t = 0; t < terms.length; t++) into[t] += stemCount(bag, terms[t]);
  for (const [word, s, n] of bag.odd) {
    const t = index.get(s);
    if (t !== undefined && prefixes.some((p) => word.startsWith(p))) into[t] += n;
  }
}

/** How often each term occurs as a word of the text. */
export function termFrequencies(text: string, terms: ReadonlyMap<string, number>, pattern: RegExp, into: Float64Array): void {
  into.fill(0);
  if (text === '') return;
  pattern.lastIndex = 0;
  const lower = text.toLowerCase();
  for (let m = pattern.exec(lower); m !== null; m = pattern.exec(lower)) {
    let word = m[0];
    // A one-character match is a CJK term (every other term has two or more characters).
    if (word.length > 1) {
      if (NON_ASCII.test(word)) word = words(word)[0] ?? word;
      word = stem(word);
    }
    const t = terms.get(word);
    if (t !== undefined) into[t]++;
  }
}

/** BM25F scores of every document for the query terms. */
export function bm25(input: Bm25Input): Bm25Result {
  const { terms, fields, count } = input;
  const k1 = input.k1 ?? 1.2;
  const scores = new Float64Array(count);
  const coverage = new Float64Array(count);
  const pattern = termPattern(terms);
  if (!pattern || count === 0) return { scores, coverage, best: 0 };
  const index = new Map(terms.map((t, i) => [t, i]));
  const nt = terms.length;
  const nf = fields.length;
  // tf[doc][field][term] and field lengths, then average lengths.
  const tf = new Float64Array(count * nf * nt);
  const lengths = new Float64Array(count * nf);
  const buffer = new Float64Array(nt);
  const prefixes = terms.filter((t) => !isCjkChar(t)).map(prefixOf);
  const cjk = terms.some((t) => isCjkChar(t));
  for (let d = 0; d < count; d++) {
    for (let f = 0; f < nf; f++) {
      const bag = cjk ? undefined : input.bag?.(d, f);
      if (bag) {
        lengths[d * nf + f] = bag.length;
        bagFrequencies(bag, terms, index, prefixes, buffer);
      } else {
        const text = input.text(d, f);
        lengths[d * nf + f] = text.length;
        termFrequencies(text, index, pattern, buffer);
      }
      tf.set(buffer, (d * nf + f) * nt);
    }
  }
  const avg = new Float64Array(nf);
  for (let f = 0; f < nf; f++) {
    let sum = 0;
    for (let d = 0; d < count; d++) sum += lengths[d * nf + f];
    avg[f] = sum / count || 1;
  }
  // Weighted, length-normalised frequency per document and term; document frequency per term.
  const wtf = new Float64Array(count * nt);
  const df = new Float64Array(nt);
  for (let d = 0; d < count; d++) {
    for (let t = 0; t < nt; t++) {
      let sum = 0;
      for (let f = 0; f < nf; f++) {
        const n = tf[(d * nf + f) * nt + t];
        if (n > 0) sum += (fields[f].weight * n) / (1 - fields[f].b + (fields[f].b * lengths[d * nf + f]) / avg[f]);
      }
      wtf[d * nt + t] = sum;
      if (sum > 0) df[t]++;
    }
  }
  const idf = Array.from(df, (n) => Math.log(1 + (count - n + 0.5) / (n + 0.5)));
  const idfSum = idf.reduce((a, b) => a + b, 0) || 1;
  let best = 0;
  for (let d = 0; d < count; d++) {
    let score = 0;
    let covered = 0;
    for (let t = 0; t < nt; t++) {
      const x = wtf[d * nt + t];
      if (x === 0) continue;
      score += (idf[t] * x * (k1 + 1)) / (k1 + x);
      covered += idf[t];
    }
    scores[d] = score;
    coverage[d] = covered / idfSum;
    if (score > best) best = score;
  }
  return { scores, coverage, best };
}
