/**
 * Token counts remembered by content hash, encoding and memctx version, so an unchanged text is
 * never tokenized twice and the tokenizer is not even loaded when every count is known. The counts
 * live in a CountStore: src/kernel/state/token-counts.ts keeps them in the state folder.
 */
import { loadTokenCounterSync, type EncodingName, type TokenCounter } from './count.js';
import { contentHash } from './hash.js';

export { contentHash };

/** Token counts by encoding and content hash. */
export interface CountStore {
  /** The count, if known (marked as used in this run). */
  get(encoding: EncodingName, hash: string): number | undefined;
  /** Whether a count is known (not marked as used). */
  has(encoding: EncodingName, hash: string): boolean;
  set(encoding: EncodingName, hash: string, count: number): void;
}

export interface CachedCounter extends TokenCounter {
  /** The cached count of a text with this content hash, if any (counts as a hit). */
  known(hash: string): number | undefined;
  /** Whether a count is known for this content hash (neither a hit nor a miss). */
  knows(hash: string): boolean;
  /** Remember a text's count computed elsewhere (a worker thread): a miss now, answered without a hit later. */
  record(hash: string, count: number): void;
  /** Tell the counter a text's count (known already, e.g. by its hash): a later count(text) answers it without hashing the text. Returns the text. */
  seenAs(text: string, count: number): string;
  /** Counts answered from the cache (on disk or earlier in this process). */
  readonly hits: number;
  /** Counts the tokenizer had to compute. */
  readonly misses: number;
}

/**
 * Counts of texts seen in this process. A long text (a file's) is found by its length and then
 * compared: a Map keyed by it would hash every character, where `===` on the very string given is
 * one pointer check (and long texts of one length mostly differ early). Short texts (index lines,
 * framing), many of one length, are kept in a Map.
 */
class SeenTexts {
  readonly #short = new Map<string, number>();
  readonly #byLength = new Map<number, [text: string, count: number][]>();

  get(text: string): number | undefined {
    if (text.length < LONG_TEXT) return this.#short.get(text);
    const same = this.#byLength.get(text.length);
    if (same) for (const [t, n] of same) if (t === text) return n;
    return undefined;
  }

  set(text: string, count: number): void {
    if (text.length < LONG_TEXT) {
      this.#short.set(text, count);
      return;
    }
    const same = this.#byLength.get(text.length);
    if (!same) this.#byLength.set(text.length, [[text, count]]);
    else if (this.get(text) === undefined) same.push([text, count]);
  }
}

const LONG_TEXT = 1024;

/**
 * A counter that asks the cache first and loads the tokenizer only on the first miss. Texts seen
 * earlier in this process are answered without hashing again.
 */
export function cachedCounter(cache: CountStore, encoding: EncodingName, load: (encoding: EncodingName) => TokenCounter = loadTokenCounterSync): CachedCounter {
  let tokenizer: TokenCounter | undefined;
  const seen = new SeenTexts();
  const recorded = new Map<string, number>();
  let hits = 0;
  let misses = 0;
  /** A count computed in this process (by a worker: not a hit), else the cache's (a hit). */
  const known = (hash: string): number | undefined => {
    const computed = recorded.get(hash);
    if (computed !== undefined) return computed;
    const n = cache.get(encoding, hash);
    if (n !== undefined) hits++;
    return n;
  };
  return {
    encoding,
    get hits() {
      return hits;
    },
    get misses() {
      return misses;
    },
    record(hash: string, count: number): void {
      cache.set(encoding, hash, count);
      recorded.set(hash, count);
      misses++;
    },
    knows(hash: string): boolean {
      return recorded.has(hash) || cache.has(encoding, hash);
    },
    known,
    seenAs(text: string, count: number): string {
      seen.set(text, count);
      return text;
    },
    count(text: string): number {
      if (text === '') return 0;
      const seenCount = seen.get(text);
      if (seenCount !== undefined) return seenCount;
      const hash = contentHash(text);
      let n = known(hash);
      if (n === undefined) {
        tokenizer ??= load(encoding);
        n = tokenizer.count(text);
        cache.set(encoding, hash, n);
        misses++;
      }
      seen.set(text, n);
      return n;
    },
  };
}
