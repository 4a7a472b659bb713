/**
 * The one text-similarity module: lint's content/duplicate, pack's task matching (relevance, re-
 * exported below) and compact's near-duplicate outputs can all draw on it.
 *
 * Near-duplicate detection without comparing every pair: each text becomes a set of hashed word
 * 3-shingles; candidates come from prefix filtering (the AllPairs similarity join): with the
 * shingles of every set in one global order, rarest first, two sets with Jaccard similarity >= t
 * must share a shingle within their first |S| - ceil(t·|S|) + 1 shingles. Only sets sharing such a
 * prefix shingle, and of compatible size, are compared exactly. At t = 0.85 each set is indexed on
 * about 15% of its shingles.
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
  return lowerShingles(text.toLowerCase(), size);
}

/** Scratch buffers reused from text to text: shingling every file should not allocate twice per file. */
let wordScratch = new Uint32Array(4096);
let shingleScratch = new Uint32Array(4096);

/** shingles() of a text already lower-cased. */
function lowerShingles(lower: string, size = SHINGLE_WORDS): Uint32Array {
  const hashes = wordHashes(lower);
  if (hashes.length < size) return new Uint32Array(0);
  const count = hashes.length - size + 1;
  if (shingleScratch.length < count) shingleScratch = new Uint32Array(count * 2);
  const all = shingleScratch.subarray(0, count);
  for (let i = 0; i < count; i++) {
    let h = 0x9747b28c;
    for (let k = 0; k < size; k++) h = mix(h ^ Math.imul(hashes[i + k], k + 1));
    all[i] = h;
  }
  all.sort();
  let n = 0;
  for (let i = 0; i < count; i++) if (i === 0 || all[i] !== all[i - 1]) all[n++] = all[i];
  return all.slice(0, n);
}

const WORD_CHAR = /^[\p{L}\p{N}_]$/u;
const wordCodes = new Map<number, boolean>();

function isWordCode(code: number): boolean {
  if (code < 128) return (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 95 || (code >= 65 && code <= 90);
  let word = wordCodes.get(code);
  if (word === undefined) wordCodes.set(code, (word = WORD_CHAR.test(String.fromCodePoint(code))));
  return word;
}

/**
 * The FNV-1a hash (of UTF-16 units) of each word, a run of letters, digits and `_` as
 * /[\p{L}\p{N}_]+/gu matches them, in one pass over the text without making the words:
 * shingling every file is a large share of lint.
 */
function wordHashes(text: string): Uint32Array {
  const most = (text.length >> 1) + 1;
  if (wordScratch.length < most) wordScratch = new Uint32Array(most * 2);
  const out = wordScratch;
  let n = 0;
  let h = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    let code = unit;
    let units = 1;
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        code = ((unit - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
        units = 2;
      }
    }
    if (isWordCode(code)) {
      if (!inWord) h = 0x811c9dc5;
      inWord = true;
      for (let u = 0; u < units; u++) {
        h ^= text.charCodeAt(i + u);
        h = Math.imul(h, 0x01000193);
      }
    } else if (inWord) {
      out[n++] = h >>> 0;
      inWord = false;
    }
    i += units - 1;
  }
  if (inWord) out[n++] = h >>> 0;
  return out.subarray(0, n);
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
  /** A set's ranks among all shingles, those in one set only included (the order of `shared` after them), unsorted. */
  fullRanks: (id: number) => Uint32Array;
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
  const bucketStart = new Uint32Array(BUCKETS + 1);
  for (const set of sets) for (let k = 0; k < set.length; k++) bucketStart[(set[k] >>> LOW_BITS) + 1]++;
  let largest = 0;
  for (let b = 1; b <= BUCKETS; b++) {
    largest = Math.max(largest, bucketStart[b]);
    bucketStart[b] += bucketStart[b - 1];
  }
  const total = bucketStart[BUCKETS];
  // Per pair: the hash (for a shared one, after counting, its index in hash order) and the set (| SHARED).
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
  let bits = 4;
  while (1 << bits < 2 * largest) bits++;
  const keys = new Uint32Array(1 << bits);
  const counts = new Uint32Array(1 << bits);
  const sharedHash: number[] = [];
  const sharedFrequency: number[] = [];
  const bucketShared = new Uint32Array(BUCKETS + 1);
  const singlesBefore = new Uint32Array(BUCKETS + 1);
  let sharedPairs = 0;
  for (let b = 0; b < BUCKETS; b++) {
    const from = bucketStart[b];
    const to = bucketStart[b + 1];
    let tableBits = 4;
    while (1 << tableBits < 2 * (to - from)) tableBits++;
    const mask = (1 << tableBits) - 1;
    counts.fill(0, 0, mask + 1);
    for (let i = from; i < to; i++) {
      const h = hashes[i];
      let s = slotOf(h, tableBits);
      while (counts[s] !== 0 && keys[s] !== h) s = (s + 1) & mask;
      keys[s] = h;
      counts[s]++;
    }
    const local: number[] = [];
    for (let s = 0; s <= mask; s++) if (counts[s] >= 2) local.push(keys[s]);
    local.sort((x, y) => x - y);
    for (const h of local) {
      let s = slotOf(h, tableBits);
      while (keys[s] !== h) s = (s + 1) & mask;
      sharedFrequency.push(counts[s]);
      sharedPairs += counts[s];
      counts[s] = SHARED + sharedHash.length;
      sharedHash.push(h);
    }
    bucketShared[b + 1] = sharedHash.length;
    singlesBefore[b + 1] = singlesBefore[b];
    for (let i = from; i < to; i++) {
      const h = hashes[i];
      let s = slotOf(h, tableBits);
      while (keys[s] !== h) s = (s + 1) & mask;
      if (counts[s] >= SHARED) {
        hashes[i] = counts[s] - SHARED;
        ids[i] |= SHARED;
      } else singlesBefore[b + 1]++;
    }
  }
  // Ranks by (frequency, hash): a counting sort on the frequency keeps the hash order within each.
  const distinct = sharedHash.length;
  const byFrequency = new Uint32Array(sets.length + 2);
  for (let d = 0; d < distinct; d++) byFrequency[sharedFrequency[d] + 1]++;
  for (let f = 1; f < byFrequency.length; f++) byFrequency[f] += byFrequency[f - 1];
  const rankOf = new Uint32Array(distinct);
  const frequency = new Uint32Array(distinct);
  for (let d = 0; d < distinct; d++) {
    const r = byFrequency[sharedFrequency[d]]++;
    rankOf[d] = r;
    frequency[r] = sharedFrequency[d];
  }
  // The sets of each rank, then each set's list filled in rank order: it comes out sorted.
  const rankStart = new Uint32Array(distinct + 1);
  for (let r = 0; r < distinct; r++) rankStart[r + 1] = rankStart[r] + frequency[r];
  const cursor = rankStart.slice(0, distinct);
  const setsByRank = new Uint32Array(sharedPairs);
  const setStart = new Uint32Array(sets.length + 1);
  for (let i = 0; i < total; i++) {
    if (ids[i] < SHARED) continue;
    const id = ids[i] - SHARED;
    setsByRank[cursor[rankOf[hashes[i]]]++] = id;
    setStart[id + 1]++;
  }
  for (let id = 0; id < sets.length; id++) setStart[id + 1] += setStart[id];
  const flat = new Uint32Array(sharedPairs);
  const setFill = setStart.slice(0, sets.length);
  for (let r = 0; r < distinct; r++) for (let i = rankStart[r]; i < rankStart[r + 1]; i++) flat[setFill[setsByRank[i]]++] = r;
  const shared = sets.map((_, id) => flat.subarray(setStart[id], setStart[id + 1]));
  const size = Uint32Array.from(sets, (set) => set.length);

  const singles = singlesBefore[BUCKETS];
  const sortedSingles: Uint32Array[] = [];
  const singlesOf = (b: number) => {
    let list = sortedSingles[b];
    if (list) return list;
    list = new Uint32Array(singlesBefore[b + 1] - singlesBefore[b]);
    let n = 0;
    for (let i = bucketStart[b]; i < bucketStart[b + 1]; i++) if (ids[i] < SHARED) list[n++] = hashes[i];
    return (sortedSingles[b] = list.sort());
  };
  const fullRank = (h: number) => {
    const b = h >>> LOW_BITS;
    let lo = bucketShared[b];
    let hi = bucketShared[b + 1];
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sharedHash[mid] < h) lo = mid + 1;
      else hi = mid;
    }
    if (lo < bucketShared[b + 1] && sharedHash[lo] === h) return singles + rankOf[lo];
    const list = singlesOf(b);
    lo = 0;
    hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (list[mid] < h) lo = mid + 1;
      else hi = mid;
    }
    return singlesBefore[b] + lo;
  };
  const fullRanks = (id: number) => (shared[id].length === sets[id].length ? shared[id].map((r) => singles + r) : sets[id].map(fullRank));
  return { shared, size, frequency, fullRanks };
}

const BANDS = 16;
const ROWS = 4;
const BINS = BANDS * ROWS;

/**
 * A set's MinHash signature by one-permutation hashing: each element hashed once into one of BINS
 * bins, the least value kept per bin; an empty bin takes the next filled bin's value, mixed with the
 * distance, so that small sets still compare bin by bin.
 */
function signature(set: Uint32Array): Uint32Array {
  const mins = new Uint32Array(BINS).fill(0xffffffff);
  const filled = new Uint8Array(BINS);
  for (let k = 0; k < set.length; k++) {
    const h = mix(set[k] + 0x9e3779b9);
    const bin = h >>> 26;
    const value = h & 0x3ffffff;
    if (value < mins[bin]) mins[bin] = value;
    filled[bin] = 1;
  }
  const out = new Uint32Array(BINS);
  for (let bin = 0; bin < BINS; bin++) {
    let from = bin;
    let distance = 0;
    while (!filled[from]) {
      from = (from + 1) % BINS;
      distance++;
    }
    out[bin] = distance === 0 ? mins[from] : mix(mins[from] + Math.imul(distance, 0x27d4eb2d));
  }
  return out;
}

/**
 * The LSH candidates of these sets (given in processing order): sets that agree on every row of some
 * band, listed under the later of the two. Band keys are sorted, not put in a Map: fewer objects.
 */
function bandCandidates(ids: number[], fullRanks: (id: number) => Uint32Array): Map<number, number[]> {
  const keys = new Float64Array(ids.length * BANDS);
  let e = 0;
  ids.forEach((id, position) => {
    const sig = signature(fullRanks(id));
    for (let band = 0; band < BANDS; band++) {
      let h = mix(0x811c9dc5 + band);
      for (let r = 0; r < ROWS; r++) h = mix(h ^ sig[band * ROWS + r]);
      keys[e++] = h * ID_BITS + position;
    }
  });
  keys.sort();
  const others = new Map<number, number[]>();
  for (let i = 1; i < keys.length; i++) {
    const key = Math.floor(keys[i] / ID_BITS);
    for (let j = i - 1; j >= 0 && Math.floor(keys[j] / ID_BITS) === key; j--) {
      const later = ids[keys[i] % ID_BITS];
      const earlier = ids[keys[j] % ID_BITS];
      if (later === earlier) continue;
      const list = others.get(later);
      if (list) list.push(earlier);
      else others.set(later, [earlier]);
    }
  }
  return others;
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
  const banded = hashed.length > 0 ? bandCandidates(hashed, fullRanks) : new Map<number, number[]>();
  const index: number[][] = [];
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
      for (const other of index[set[k]] ?? []) compare(id, set, n, other, minSize);
    }
    for (const other of banded.get(id) ?? []) compare(id, set, n, other, minSize);
    for (let k = 0; k < indexed && k < set.length; k++) if (frequency[set[k]] <= MAX_POSTING) (index[set[k]] ??= []).push(id);
  }
  return pairs.sort((x, y) => x.a - y.a || x.b - y.b);
}

const HEADING = /^\s{0,3}#{1,6}\s/;
const BODY_BITS = 2 ** 21;

/**
 * The shingles of each memory body's text that says something: heading lines and lines (trimmed,
 * lower-cased) found in at least `minFiles` bodies — a template's placeholders such as "none
 * recorded" — are left out, so two files from one template with different content do not look alike.
 * Each body is lower-cased once per pass and no line set is made per body.
 */
export function contentShingles(bodies: readonly string[], minFiles = 3): Uint32Array[] {
  if (bodies.length >= BODY_BITS) throw new Error(`duplicate detection handles at most ${BODY_BITS - 1} files`);
  // Per line: files holding it × BODY_BITS + (last file counted + 1).
  const seen = new Map<string, number>();
  bodies.forEach((body, i) => {
    for (const raw of body.toLowerCase().split('\n')) {
      const line = raw.trim();
      if (line === '') continue;
      const was = seen.get(line);
      if (was === undefined) seen.set(line, BODY_BITS + i + 1);
      else if (was % BODY_BITS !== i + 1) seen.set(line, (Math.floor(was / BODY_BITS) + 1) * BODY_BITS + i + 1);
    }
  });
  // Only the common lines outlive the count; most lines are looked up by their length alone.
  const commonSet = new Set<string>();
  for (const [line, value] of seen) if (value >= minFiles * BODY_BITS) commonSet.add(line);
  seen.clear();
  const lengths = new Set([...commonSet].map((line) => line.length));
  const common = (line: string) => {
    const trimmed = line.trim();
    return lengths.has(trimmed.length) && commonSet.has(trimmed);
  };
  return bodies.map((body) =>
    lowerShingles(
      body
        .toLowerCase()
        .split('\n')
        .filter((line) => !HEADING.test(line) && !common(line))
        .join('\n'),
    ),
  );
}
