/**
 * The one text-similarity module: lint's content/duplicate, pack's task matching (relevance, re-
 * exported below) and compact's near-duplicate outputs can all draw on it.
 *
 * Near-duplicate detection without comparing every pair: each text becomes a set of hashed word
 * 3-shingles; candidates come from prefix filtering (the AllPairs similarity join): with the
 * shingles of every set in one global order, rarest first, two sets with Jaccard similarity >= t
 * must share a shingle within their first |S| - ceil(t·|S|) + 1 shingles. Only sets sharing such a
 * prefix shingle, and of compatible size, are compared exactly. At t = 0.85 each set is indexed on
 * about 15% of its shingles. A shingle in one set only can be in no pair's overlap: only shingles in
 * two sets or more are ranked and kept, with each set's full size, so every exact check is unchanged.
 *
 * A shingle found in many files (a small shared vocabulary: thousands of files from one template)
 * would make that index compare nearly every pair. Shingles in more than MAX_POSTING files are not
 * indexed; sets whose prefix holds one find their candidates through MinHash LSH instead (one-
 * permutation hashing, 16 bands of 4), which misses a pair at Jaccard 0.85 with probability about
 * 1e-5. Every candidate is compared exactly, so nothing is reported that is not over the threshold.
 * Containment of a small set in a much larger one is found through the index only.
 */

const SHINGLE_WORDS = 3;
/** Sets smaller than this (texts under ~7 words) are not compared: too short to call duplicates. */
export const MIN_SHINGLES = 5;

function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The distinct hashed word shingles of a text, sorted ascending. */
export function shingles(text: string, size = SHINGLE_WORDS): Uint32Array {
  const lower = text.toLowerCase();
  words.length = 0;
  appendWordHashes(lower, 0, lower.length, words);
  return shinglesOf(words.values, 0, words.length, size);
}

/** A growable list of numbers in a typed array. */
class Numbers {
  values = new Uint32Array(4096);
  length = 0;
  /** Room for `more` further numbers. */
  reserve(more: number): void {
    if (this.length + more <= this.values.length) return;
    const grown = new Uint32Array(Math.max(this.values.length * 2, this.length + more));
    grown.set(this.values.subarray(0, this.length));
    this.values = grown;
  }
  push(value: number): void {
    this.reserve(1);
    this.values[this.length++] = value;
  }
}

/** shingles()'s word hashes, reused from text to text. */
const words = new Numbers();
let shingleScratch = new Uint32Array(4096);

/** The sorted distinct shingles of the word hashes list[from, to). */
function shinglesOf(list: Uint32Array, from: number, to: number, size = SHINGLE_WORDS): Uint32Array {
  if (to - from < size) return new Uint32Array(0);
  const count = to - from - size + 1;
  if (shingleScratch.length < count) shingleScratch = new Uint32Array(count * 2);
  const all = shingleScratch.subarray(0, count);
  for (let i = 0; i < count; i++) {
    let h = 0x9747b28c;
    for (let k = 0; k < size; k++) h = mix(h ^ Math.imul(list[from + i + k], k + 1));
    all[i] = h;
  }
  all.sort();
  let n = 0;
  for (let i = 0; i < count; i++) if (i === 0 || all[i] !== all[i - 1]) all[n++] = all[i];
  return all.slice(0, n);
}

const WORD_CHAR = /^[\p{L}\p{N}_]$/u;
const wordCodes = new Map<number, boolean>();
/** 1 for the ASCII letters, digits and `_`. */
const ASCII_WORD = Uint8Array.from({ length: 128 }, (_, c) => (/\w/.test(String.fromCharCode(c)) ? 1 : 0));

function isWordCode(code: number): boolean {
  if (code < 128) return ASCII_WORD[code] === 1;
  let word = wordCodes.get(code);
  if (word === undefined) wordCodes.set(code, (word = WORD_CHAR.test(String.fromCodePoint(code))));
  return word;
}

/**
 * Appends to `words` the FNV-1a hash (of UTF-16 units) of each word of text[from, to), a run of
 * letters, digits and `_` as /[\p{L}\p{N}_]+/gu matches them, in one pass without making the
 * words: shingling every file is a large share of lint.
 */
function appendWordHashes(text: string, from: number, to: number, words: Numbers): void {
  words.reserve(((to - from) >> 1) + 1);
  const out = words.values;
  let n = words.length;
  let h = 0;
  let inWord = false;
  for (let i = from; i < to; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 128) {
      if (ASCII_WORD[unit] === 1) {
        if (!inWord) h = 0x811c9dc5;
        inWord = true;
        h = Math.imul(h ^ unit, 0x01000193);
      } else if (inWord) {
        out[n++] = h >>> 0;
        inWord = false;
      }
      continue;
    }
    let code = unit;
    let units = 1;
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < to) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        code = ((unit - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
        units = 2;
      }
    }
    if (isWordCode(code)) {
      if (!inWord) h = 0x811c9dc5;
      inWord = true;
      for (let u = 0; u < units; u++) h = Math.imul(h ^ text.charCodeAt(i + u), 0x01000193);
    } else if (inWord) {
      out[n++] = h >>> 0;
      inWord = false;
    }
    i += units - 1;
  }
  if (inWord) out[n++] = h >>> 0;
  words.length = n;
}

/** Exact Jaccard similarity of two sorted sets. */
export function jaccard(a: Uint32Array, b: Uint32Array): number {
  if (a.length === 0 && b.length === 0) return 1;
  const common = overlap(a, b);
  return common / (a.length + b.length - common);
}

export interface SimilarPair {
  /** Indexes into the input, a < b. */
  a: number;
  b: number;
  /** Jaccard similarity. */
  similarity: number;
  /** Share of the smaller set found in the other (|A∩B| / min(|A|, |B|)). */
  containment: number;
}

/** |A∩B| of two sorted sets; -1 as soon as it cannot reach `need`. */
function overlap(a: Uint32Array, b: Uint32Array, need = 0): number {
  let i = 0;
  let j = 0;
  let common = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      common++;
      i++;
      j++;
      continue;
    }
    if (a[i] < b[j]) i++;
    else j++;
    if (common + Math.min(a.length - i, b.length - j) < need) return -1;
  }
  return common;
}

/** Share of the smaller set found in the other, 0-1. */
export function containment(a: Uint32Array, b: Uint32Array): number {
  const smaller = Math.min(a.length, b.length);
  return smaller === 0 ? 0 : overlap(a, b) / smaller;
}

const EPSILON = 1e-9;

/** A shingle in more sets than this is not indexed (see above). */
export const MAX_POSTING = 32;

const ID_BITS = 2 ** 21;
const SHARED = 0x80000000;
const BUCKET_BITS = 11;
const BUCKETS = 1 << BUCKET_BITS;
const LOW_BITS = 32 - BUCKET_BITS;

interface Ranks {
  /** Each set's shingles also found in another set, as ranks in the global order, sorted ascending. */
  shared: Uint32Array[];
  /** Each set's size, its shingles found in no other set included. */
  size: Uint32Array;
  /** The number of sets holding each rank of `shared`. */
  frequency: Uint32Array;
  /** Writes a set's ranks among all shingles, those in one set only included (the order of `shared` after them), unsorted. */
  fullRanks: (id: number, out: Numbers) => void;
}

/** A slot of a linear-probing table of 2^bits slots (Fibonacci hashing: small or patterned values spread too). */
const slotOf = (h: number, bits: number) => Math.imul(h, 0x9e3779b1) >>> (32 - bits);

/**
 * The global order of shingles: rarest first, ties by hash. A shingle in one set only can bring
 * no pair, so only the shared ones are ranked and kept per set (a set is its shared ranks and its
 * size); the ranks of the others, all before the shared ones, are worked out only for the sets
 * whose MinHash signature is needed. Grouping without a full sort: the (hash, set) pairs go into
 * 2,048 buckets by their top bits, and each bucket counts its hashes in a table small enough to
 * stay in cache.
 */
function globalRanks(sets: Uint32Array[]): Ranks {
  if (sets.length >= ID_BITS) throw new Error(`duplicate detection handles at most ${ID_BITS - 1} files`);
  const pairs = bucketPairs(sets);
  const counted = countBuckets(pairs);
  const { rankOf, frequency } = rankShared(counted.sharedFrequency, sets.length);
  const shared = listsByRank(pairs, rankOf, frequency, sets.length);
  const singles = counted.singlesBefore[BUCKETS];
  const fullRank = fullRanker(pairs, counted, rankOf);
  const fullRanks = (id: number, out: Numbers) => {
    const set = sets[id];
    out.length = 0;
    out.reserve(set.length);
    if (shared[id].length === set.length) for (let k = 0; k < set.length; k++) out.values[k] = singles + shared[id][k];
    else for (let k = 0; k < set.length; k++) out.values[k] = fullRank(set[k]);
    out.length = set.length;
  };
  return { shared, size: Uint32Array.from(sets, (set) => set.length), frequency, fullRanks };
}

interface Pairs {
  /** Where each bucket starts. */
  bucketStart: Uint32Array;
  /** Per (hash, set) pair: the hash (once counted, for a shared one, its index in hash order). */
  hashes: Uint32Array;
  /** Per pair: the set, | SHARED once counted for a shared hash. */
  ids: Uint32Array;
}

/** Every (hash, set) pair, by bucket (the hash's top bits). */
function bucketPairs(sets: Uint32Array[]): Pairs {
  const bucketStart = new Uint32Array(BUCKETS + 1);
  for (const set of sets) for (let k = 0; k < set.length; k++) bucketStart[(set[k] >>> LOW_BITS) + 1]++;
  for (let b = 1; b <= BUCKETS; b++) bucketStart[b] += bucketStart[b - 1];
  const total = bucketStart[BUCKETS];
  const hashes = new Uint32Array(total);
  const ids = new Uint32Array(total);
  const fill = bucketStart.slice(0, BUCKETS);
  for (let id = 0; id < sets.length; id++) {
    const set = sets[id];
    for (let k = 0; k < set.length; k++) {
      const at = fill[set[k] >>> LOW_BITS]++;
      hashes[at] = set[k];
      ids[at] = id;
    }
  }
  return { bucketStart, hashes, ids };
}

interface Counted {
  /** The shared hashes in ascending order, and the sets holding each. */
  sharedHash: Float64Array;
  sharedFrequency: Uint32Array;
  /** Where each bucket's shared hashes start in sharedHash. */
  bucketShared: Uint32Array;
  /** The number of single-set hashes in the buckets before each. */
  singlesBefore: Uint32Array;
}

/** Counts each bucket's hashes; marks the pairs of shared hashes (SHARED, hash → its index). */
function countBuckets({ bucketStart, hashes, ids }: Pairs): Counted {
  let largest = 0;
  for (let b = 0; b < BUCKETS; b++) largest = Math.max(largest, bucketStart[b + 1] - bucketStart[b]);
  let bits = 4;
  while (1 << bits < 2 * largest) bits++;
  const keys = new Uint32Array(1 << bits);
  const counts = new Uint32Array(1 << bits);
  const sharedHash: number[] = [];
  const sharedFrequency: number[] = [];
  const bucketShared = new Uint32Array(BUCKETS + 1);
  const singlesBefore = new Uint32Array(BUCKETS + 1);
  for (let b = 0; b < BUCKETS; b++) {
    const from = bucketStart[b];
    const to = bucketStart[b + 1];
    let tableBits = 4;
    while (1 << tableBits < 2 * (to - from)) tableBits++;
    const mask = (1 << tableBits) - 1;
    const slot = (h: number) => {
      let s = slotOf(h, tableBits);
      while (counts[s] !== 0 && keys[s] !== h) s = (s + 1) & mask;
      return s;
    };
    counts.fill(0, 0, mask + 1);
    for (let i = from; i < to; i++) {
      const s = slot(hashes[i]);
      keys[s] = hashes[i];
      counts[s]++;
    }
    const local: number[] = [];
    for (let s = 0; s <= mask; s++) if (counts[s] >= 2) local.push(keys[s]);
    for (const h of local.sort((x, y) => x - y)) {
      const s = slot(h);
      sharedFrequency.push(counts[s]);
      counts[s] = SHARED + sharedHash.length;
      sharedHash.push(h);
    }
    bucketShared[b + 1] = sharedHash.length;
    singlesBefore[b + 1] = singlesBefore[b];
    for (let i = from; i < to; i++) {
      const s = slot(hashes[i]);
      if (counts[s] >= SHARED) {
        hashes[i] = counts[s] - SHARED;
        ids[i] |= SHARED;
      } else singlesBefore[b + 1]++;
    }
  }
  return { sharedHash: Float64Array.from(sharedHash), sharedFrequency: Uint32Array.from(sharedFrequency), bucketShared, singlesBefore };
}

/** Ranks by (frequency, hash): a counting sort on the frequency keeps the hash order within each. */
function rankShared(sharedFrequency: Uint32Array, setCount: number): { rankOf: Uint32Array; frequency: Uint32Array } {
  const byFrequency = new Uint32Array(setCount + 2);
  for (const f of sharedFrequency) byFrequency[f + 1]++;
  for (let f = 1; f < byFrequency.length; f++) byFrequency[f] += byFrequency[f - 1];
  const rankOf = new Uint32Array(sharedFrequency.length);
  const frequency = new Uint32Array(sharedFrequency.length);
  sharedFrequency.forEach((f, d) => {
    const r = byFrequency[f]++;
    rankOf[d] = r;
    frequency[r] = f;
  });
  return { rankOf, frequency };
}

/** Each set's shared ranks, sorted: the sets of each rank listed first, then each set's list filled in rank order. */
function listsByRank({ hashes, ids }: Pairs, rankOf: Uint32Array, frequency: Uint32Array, setCount: number): Uint32Array[] {
  const distinct = frequency.length;
  const rankStart = new Uint32Array(distinct + 1);
  for (let r = 0; r < distinct; r++) rankStart[r + 1] = rankStart[r] + frequency[r];
  const cursor = rankStart.slice(0, distinct);
  const setsByRank = new Uint32Array(rankStart[distinct]);
  const setStart = new Uint32Array(setCount + 1);
  for (let i = 0; i < ids.length; i++) {
    if (ids[i] < SHARED) continue;
    const id = ids[i] - SHARED;
    setsByRank[cursor[rankOf[hashes[i]]]++] = id;
    setStart[id + 1]++;
  }
  for (let id = 0; id < setCount; id++) setStart[id + 1] += setStart[id];
  const flat = new Uint32Array(rankStart[distinct]);
  const setFill = setStart.slice(0, setCount);
  for (let r = 0; r < distinct; r++) for (let i = rankStart[r]; i < rankStart[r + 1]; i++) flat[setFill[setsByRank[i]]++] = r;
  return Array.from({ length: setCount }, (_, id) => flat.subarray(setStart[id], setStart[id + 1]));
}

/** lowerBound: the first index in list[from, to) whose value is not below h. */
function lowerBound(list: ArrayLike<number>, from: number, to: number, h: number): number {
  while (from < to) {
    const mid = (from + to) >>> 1;
    if (list[mid] < h) from = mid + 1;
    else to = mid;
  }
  return from;
}

/** A hash's rank among all hashes, those of one set first in hash order (each bucket's sorted when first asked). */
function fullRanker({ bucketStart, hashes, ids }: Pairs, { sharedHash, bucketShared, singlesBefore }: Counted, rankOf: Uint32Array): (h: number) => number {
  const singles = singlesBefore[BUCKETS];
  const sortedSingles: Uint32Array[] = [];
  const singlesOf = (b: number) => {
    if (sortedSingles[b]) return sortedSingles[b];
    const list = new Uint32Array(singlesBefore[b + 1] - singlesBefore[b]);
    let n = 0;
    for (let i = bucketStart[b]; i < bucketStart[b + 1]; i++) if (ids[i] < SHARED) list[n++] = hashes[i];
    return (sortedSingles[b] = list.sort());
  };
  return (h: number) => {
    const b = h >>> LOW_BITS;
    const d = lowerBound(sharedHash, bucketShared[b], bucketShared[b + 1], h);
    if (d < bucketShared[b + 1] && sharedHash[d] === h) return singles + rankOf[d];
    const list = singlesOf(b);
    return singlesBefore[b] + lowerBound(list, 0, list.length, h);
  };
}

const BANDS = 16;
const ROWS = 4;
const BINS = BANDS * ROWS;
const binMins = new Uint32Array(BINS);
const binFilled = new Uint8Array(BINS);

/**
 * A set's MinHash signature by one-permutation hashing, written to `out`: each element hashed once
 * into one of BINS bins, the least value kept per bin; an empty bin takes the next filled bin's
 * value, mixed with the distance, so that small sets still compare bin by bin.
 */
function signature(set: Uint32Array, out: Uint32Array): void {
  binMins.fill(0xffffffff);
  binFilled.fill(0);
  for (let k = 0; k < set.length; k++) {
    const h = mix(set[k] + 0x9e3779b9);
    const bin = h >>> 26;
    const value = h & 0x3ffffff;
    if (value < binMins[bin]) binMins[bin] = value;
    binFilled[bin] = 1;
  }
  for (let bin = 0; bin < BINS; bin++) {
    let from = bin;
    let distance = 0;
    while (!binFilled[from]) {
      from = (from + 1) % BINS;
      distance++;
    }
    out[bin] = distance === 0 ? binMins[from] : mix(binMins[from] + Math.imul(distance, 0x27d4eb2d));
  }
}

/** Candidate lists of each set: others[start[id], start[id + 1]). */
interface Candidates {
  start: Uint32Array;
  others: Uint32Array;
}

/**
 * The LSH candidates of these sets (given in processing order): sets that agree on every row of some
 * band, listed under the later of the two. Typed arrays throughout: no Map or array per set.
 */
function bandCandidates(ids: number[], setCount: number, fullRanks: (id: number, out: Numbers) => void): Candidates {
  const keys = new Uint32Array(ids.length * BANDS);
  const sig = new Uint32Array(BINS);
  const ranks = new Numbers();
  let e = 0;
  ids.forEach((id) => {
    fullRanks(id, ranks);
    signature(ranks.values.subarray(0, ranks.length), sig);
    for (let band = 0; band < BANDS; band++) {
      let h = mix(0x811c9dc5 + band);
      for (let r = 0; r < ROWS; r++) h = mix(h ^ sig[band * ROWS + r]);
      keys[e++] = h;
    }
  });
  // Equal keys chained through a table: each entry links to the previous entry with its key.
  let bits = 4;
  while (1 << bits < 2 * keys.length) bits++;
  const mask = (1 << bits) - 1;
  const slotKeys = new Uint32Array(mask + 1);
  const slotLast = new Int32Array(mask + 1).fill(-1);
  const previous = new Int32Array(keys.length);
  const later = new Numbers();
  const earlier = new Numbers();
  for (let i = 0; i < keys.length; i++) {
    let s = slotOf(keys[i], bits);
    while (slotLast[s] !== -1 && slotKeys[s] !== keys[i]) s = (s + 1) & mask;
    slotKeys[s] = keys[i];
    previous[i] = slotLast[s];
    slotLast[s] = i;
    const position = Math.floor(i / BANDS);
    for (let j = previous[i]; j !== -1; j = previous[j]) {
      const other = Math.floor(j / BANDS);
      if (other === position) continue;
      later.push(ids[position]);
      earlier.push(ids[other]);
    }
  }
  const start = new Uint32Array(setCount + 1);
  for (let p = 0; p < later.length; p++) start[later.values[p] + 1]++;
  for (let id = 0; id < setCount; id++) start[id + 1] += start[id];
  const fill = start.slice(0, setCount);
  const others = new Uint32Array(later.length);
  for (let p = 0; p < later.length; p++) others[fill[later.values[p]]++] = earlier.values[p];
  return { start, others };
}

/**
 * Every pair of sets with Jaccard similarity >= threshold, or (when `containment` is given) with
 * at least that share of the smaller set in the other, sorted by (a, b). Sets are indexed on their
 * rarest shingles; a set is compared with the sets sharing one of its prefix shingles (Jaccard) or
 * any of its shingles (containment: the smaller set's prefix must meet the larger set somewhere).
 */
export function similarPairs(sets: Uint32Array[], threshold: number, containmentThreshold?: number): SimilarPair[] {
  const { shared, size, frequency, fullRanks } = globalRanks(sets);
  const order = shared
    .map((set, id) => ({ id, set, n: size[id] }))
    .filter((d) => d.n >= MIN_SHINGLES)
    .sort((x, y) => x.n - y.n || x.id - y.id);
  const c = containmentThreshold;
  const indexShare = c === undefined ? threshold : Math.min(threshold, c);
  const indexedCount = (n: number) => n - Math.ceil(indexShare * n - EPSILON) + 1;
  // A set's shingles in no other set come first in its order: its k-th shingle is set[k - single].
  // Sets with a shingle too common to index within their indexed prefix: LSH finds their candidates.
  const hashed = order.filter(({ set, n }) => set.subarray(0, Math.max(0, indexedCount(n) - (n - set.length))).some((r) => frequency[r] > MAX_POSTING)).map((d) => d.id);
  const banded = hashed.length > 0 ? bandCandidates(hashed, sets.length, fullRanks) : { start: new Uint32Array(sets.length + 1), others: new Uint32Array(0) };
  const postings: number[][] = [];
  const seen = new Set<number>();
  const pairs: SimilarPair[] = [];
  const compare = (id: number, set: Uint32Array, n: number, other: number, minSize: number) => {
    const m = size[other];
    if (seen.has(other) || (c === undefined && m < minSize)) return;
    seen.add(other);
    // The least overlap either test could pass with (rounded down, so never too strict).
    const jaccardNeed = ((threshold - EPSILON) * (n + m)) / (1 + threshold - EPSILON);
    const need = Math.floor(Math.min(jaccardNeed, c === undefined ? Infinity : (c - EPSILON) * Math.min(n, m)) - 1e-6);
    // Only shared shingles can be common: the overlap of the shared parts is the sets' overlap.
    const common = overlap(set, shared[other], need);
    if (common < 0) return;
    const similarity = common / (n + m - common);
    const contained = common / Math.min(n, m);
    if (similarity >= threshold - EPSILON || (c !== undefined && contained >= c - EPSILON)) {
      pairs.push({ a: Math.min(id, other), b: Math.max(id, other), similarity, containment: contained });
    }
  };
  for (const { id, set, n } of order) {
    const single = n - set.length;
    const minSize = Math.ceil(threshold * n - EPSILON);
    const prefix = n - minSize + 1;
    const indexed = indexedCount(n) - single;
    const probe = (c === undefined ? prefix : n) - single;
    seen.clear();
    for (let k = 0; k < probe && k < set.length; k++) {
      if (frequency[set[k]] > MAX_POSTING) continue;
      for (const other of postings[set[k]] ?? []) compare(id, set, n, other, minSize);
    }
    for (let q = banded.start[id]; q < banded.start[id + 1]; q++) compare(id, set, n, banded.others[q], minSize);
    for (let k = 0; k < indexed && k < set.length; k++) if (frequency[set[k]] <= MAX_POSTING) (postings[set[k]] ??= []).push(id);
  }
  return pairs.sort((x, y) => x.a - y.a || x.b - y.b);
}

const HEADING_AT = /[^\S\n]{0,3}#{1,6}[^\S\n]/y;
const BODY_BITS = 2 ** 21;
const SPACE = /\s/;
const HEADING_LINE = 1;
const COMMON_LINE = 2;

/** Whether String.prototype.trim removes this UTF-16 unit. */
function isSpace(unit: number): boolean {
  return unit < 128 ? unit === 32 || (unit >= 9 && unit <= 13) : SPACE.test(String.fromCharCode(unit));
}

/**
 * The shingles of each memory body's text that says something: heading lines and lines (trimmed,
 * lower-cased) found in at least `minFiles` bodies — a template's placeholders such as "none
 * recorded" — are left out, so two files from one template with different content do not look alike.
 * One pass over the text hashes each line's words and notes its bounds; lines are counted by a key
 * made of their word hashes and length (equal lines have equal keys), and only lines whose key is
 * in `minFiles` bodies are compared as text.
 */
export function contentShingles(bodies: readonly string[], minFiles = 3): Uint32Array[] {
  if (bodies.length >= BODY_BITS) throw new Error(`duplicate detection handles at most ${BODY_BITS - 1} files`);
  // Per non-blank line, in body order: its trimmed bounds, where its words end, its key, its kind.
  const starts = new Numbers();
  const ends = new Numbers();
  const wordEnds = new Numbers();
  const keys = new Numbers();
  const kinds = new Numbers();
  const bodyLines = new Uint32Array(bodies.length + 1);
  const words = new Numbers();
  bodies.forEach((body, i) => {
    const lower = body.toLowerCase();
    for (let at = 0; at <= lower.length; ) {
      const next = lower.indexOf('\n', at);
      const end = next < 0 ? lower.length : next;
      let from = at;
      let to = end;
      while (from < to && isSpace(lower.charCodeAt(from))) from++;
      while (to > from && isSpace(lower.charCodeAt(to - 1))) to--;
      if (to > from) {
        const first = words.length;
        appendWordHashes(lower, from, to, words);
        let key = mix(to - from);
        for (let w = first; w < words.length; w++) key = mix(key ^ words.values[w]);
        HEADING_AT.lastIndex = at;
        starts.push(from);
        ends.push(to);
        wordEnds.push(words.length);
        keys.push(key);
        kinds.push(from - at <= 3 && lower.charCodeAt(from) === 35 && HEADING_AT.test(lower) ? HEADING_LINE : 0);
      }
      at = end + 1;
    }
    bodyLines[i + 1] = keys.length;
  });
  markCommonLines(bodies, bodyLines, { starts, ends, keys, kinds }, minFiles);
  // Each body's shingles over the words of its lines kept.
  const kept = new Numbers();
  const sets: Uint32Array[] = [];
  for (let i = 0; i < bodies.length; i++) {
    const first = bodyLines[i];
    const last = bodyLines[i + 1];
    let from = first === 0 ? 0 : wordEnds.values[first - 1];
    let all = true;
    for (let l = first; l < last; l++) all &&= kinds.values[l] === 0;
    if (all) {
      sets.push(shinglesOf(words.values, from, last === 0 ? 0 : wordEnds.values[last - 1]));
      continue;
    }
    kept.length = 0;
    for (let l = first; l < last; from = wordEnds.values[l], l++) {
      if (kinds.values[l] !== 0) continue;
      kept.reserve(wordEnds.values[l] - from);
      kept.values.set(words.values.subarray(from, wordEnds.values[l]), kept.length);
      kept.length += wordEnds.values[l] - from;
    }
    sets.push(shinglesOf(kept.values, 0, kept.length));
  }
  return sets;
}

/**
 * Marks COMMON_LINE the lines (trimmed, lower-cased) found in at least `minFiles` bodies, as
 * headings or not (an indented "# x" is no heading but matches one). A key in fewer bodies rules
 * its lines out; the lines of the other keys are counted as text.
 */
function markCommonLines(
  bodies: readonly string[],
  bodyLines: Uint32Array,
  lines: { starts: Numbers; ends: Numbers; keys: Numbers; kinds: Numbers },
  minFiles: number,
): void {
  const { starts, ends, keys, kinds } = lines;
  let bits = 4;
  while (1 << bits < 2 * keys.length) bits++;
  const mask = (1 << bits) - 1;
  const slotKeys = new Uint32Array(mask + 1);
  // Per slot: bodies holding the key; the last body counted + 1 (0: empty slot).
  const slotCounts = new Uint32Array(mask + 1);
  const slotLast = new Uint32Array(mask + 1);
  const slotOfLine = new Uint32Array(keys.length);
  for (let i = 0; i < bodies.length; i++) {
    for (let l = bodyLines[i]; l < bodyLines[i + 1]; l++) {
      const key = keys.values[l];
      let s = slotOf(key, bits);
      while (slotLast[s] !== 0 && slotKeys[s] !== key) s = (s + 1) & mask;
      slotKeys[s] = key;
      if (slotLast[s] !== i + 1) {
        slotLast[s] = i + 1;
        slotCounts[s]++;
      }
      slotOfLine[l] = s;
    }
  }
  // Per candidate line's text: files holding it × BODY_BITS + (last file counted + 1).
  const seen = new Map<string, number>();
  const text = (l: number, lower: string) => lower.slice(starts.values[l], ends.values[l]);
  const candidate = (l: number) => slotCounts[slotOfLine[l]] >= minFiles;
  for (let i = 0; i < bodies.length; i++) {
    let lower: string | undefined;
    for (let l = bodyLines[i]; l < bodyLines[i + 1]; l++) {
      if (!candidate(l)) continue;
      const line = text(l, (lower ??= bodies[i].toLowerCase()));
      const was = seen.get(line);
      if (was === undefined) seen.set(line, BODY_BITS + i + 1);
      else if (was % BODY_BITS !== i + 1) seen.set(line, (Math.floor(was / BODY_BITS) + 1) * BODY_BITS + i + 1);
    }
  }
  if (seen.size === 0) return;
  for (let i = 0; i < bodies.length; i++) {
    let lower: string | undefined;
    for (let l = bodyLines[i]; l < bodyLines[i + 1]; l++) {
      if (kinds.values[l] === 0 && candidate(l) && seen.get(text(l, (lower ??= bodies[i].toLowerCase())))! >= minFiles * BODY_BITS) kinds.values[l] = COMMON_LINE;
    }
  }
}
