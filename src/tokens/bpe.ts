/**
 * Exact token counts of single pieces, without js-tiktoken's per-call costs. js-tiktoken's encode()
 * builds two regular expressions on every call and merges byte pairs by rescanning the whole piece
 * after every merge, which is quadratic: a 16 KB run of one letter takes seconds, a 5 MB one never
 * ends. This does the same merges — lowest rank first, leftmost among equal ranks — with a plain
 * loop for short pieces and, for long ones, left-to-right sweeps over the pending pairs of each rank
 * (ranks taken lowest first from a small heap), and gives the identical count.
 */

interface Ranks {
  bpe_ranks: string;
}

/** Rank of each token, keyed by its bytes as a latin1 string (one char per byte). */
function rankTable(ranks: Ranks): Map<string, number> {
  const table = new Map<string, number>();
  for (const line of ranks.bpe_ranks.split('\n')) {
    if (!line) continue;
    const [, offsetText, ...tokens] = line.split(' ');
    const offset = Number.parseInt(offsetText, 10);
    tokens.forEach((token, i) => table.set(Buffer.from(token, 'base64').toString('latin1'), offset + i));
  }
  return table;
}

/** A 4-ary min-heap of numbers (the ranks with pending pairs). */
class KeyHeap {
  private a: Float64Array;
  size = 0;
  constructor(capacity: number) {
    this.a = new Float64Array(Math.max(16, capacity));
  }
  push(key: number): void {
    if (this.size === this.a.length) {
      const b = new Float64Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.size++] = key;
    const a = this.a;
    let i = this.size - 1;
    while (i > 0) {
      const p = (i - 1) >> 2;
      if (a[p] <= key) break;
      a[i] = a[p];
      i = p;
    }
    a[i] = key;
  }
  pop(): number {
    const top = this.a[0];
    const last = this.a[--this.size];
    if (this.size) this.down(0, last);
    return top;
  }
  private down(i: number, key: number): void {
    const a = this.a;
    const size = this.size;
    for (;;) {
      const c = 4 * i + 1;
      if (c >= size) break;
      let m = c;
      const end = Math.min(c + 4, size);
      for (let k = c + 1; k < end; k++) if (a[k] < a[m]) m = k;
      if (a[m] >= key) break;
      a[i] = a[m];
      i = m;
    }
    a[i] = key;
  }
}

interface Bucket {
  /** Start positions of pending pairs of one rank, from index `from` on. */
  at: number[];
  from: number;
  sorted: boolean;
  queued: boolean;
}

const MISSING = -2;

/** Open-addressing cache of (token, token) → rank of their concatenation (-1: not a token). */
class PairCache {
  private readonly bits = 16;
  private readonly keysA = new Int32Array(1 << this.bits).fill(-1);
  private readonly keysB = new Int32Array(1 << this.bits);
  private readonly values = new Int32Array(1 << this.bits);
  private used = 0;
  private slot(a: number, b: number): number {
    const mask = (1 << this.bits) - 1;
    let h = (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77)) >>> (32 - this.bits);
    while (this.keysA[h] !== -1 && (this.keysA[h] !== a || this.keysB[h] !== b)) h = (h + 1) & mask;
    return h;
  }
  get(a: number, b: number): number {
    const h = this.slot(a, b);
    return this.keysA[h] === -1 ? MISSING : this.values[h];
  }
  set(a: number, b: number, rank: number): void {
    if (this.used >= (1 << this.bits) >> 1) return; // half full: stop caching, keep probes short
    const h = this.slot(a, b);
    if (this.keysA[h] === -1) this.used++;
    this.keysA[h] = a;
    this.keysB[h] = b;
    this.values[h] = rank;
  }
}

const NONE = 0x7fffffff;
// eslint-disable-next-line no-control-regex
const ASCII = /^[\x00-\x7f]*$/;
const SMALL = 64;

/**
 * A function counting the tokens of one piece (a match of the encoding's split pattern), exactly as
 * js-tiktoken would: short pieces by the plain merge loop, long ones with a heap.
 */
export function createPieceCounter(ranks: Ranks): (piece: string) => number {
  const table = rankTable(ranks);
  const pairs = new PairCache();
  const start = new Int32Array(SMALL + 1);
  const rank = new Int32Array(SMALL);

  /** The plain loop (as js-tiktoken and tiktoken do it): merge the lowest-ranked adjacent pair, leftmost first. */
  const countSmall = (s: string, n: number): number => {
    for (let i = 0; i <= n; i++) start[i] = i;
    for (let i = 0; i + 1 < n; i++) rank[i] = table.get(s.slice(i, i + 2)) ?? NONE;
    let parts = n;
    const pair = (i: number) => (i + 2 <= parts ? (table.get(s.slice(start[i], start[i + 2])) ?? NONE) : NONE);
    for (;;) {
      let min = NONE;
      let at = -1;
      for (let i = 0; i + 1 < parts; i++) {
        if (rank[i] < min) {
          min = rank[i];
          at = i;
        }
      }
      if (at < 0) return parts;
      for (let k = at + 1; k < parts; k++) start[k] = start[k + 1];
      for (let k = at + 1; k + 1 < parts; k++) rank[k] = rank[k + 1];
      parts--;
      rank[at] = pair(at);
      if (at > 0) rank[at - 1] = pair(at - 1);
    }
  };

  return (piece: string): number => {
    const s = ASCII.test(piece) ? piece : Buffer.from(piece, 'utf8').toString('latin1');
    const n = s.length;
    if (n <= 1) return n;
    if (table.has(s)) return 1; // as js-tiktoken: a piece that is itself a token is one token
    if (n <= SMALL) return countSmall(s, n);
    // parts are [i, next[i]) with token rank tok[i]; dead parts have next = -1
    const next = new Int32Array(n);
    const prev = new Int32Array(n);
    const tok = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      next[i] = i + 1;
      prev[i] = i - 1;
      tok[i] = table.get(s[i]) ?? -1;
    }
    // the rank of two adjacent tokens' concatenation depends only on the two tokens: cached
    const pairRank = (i: number): number | undefined => {
      const j = next[i];
      if (j >= n) return undefined;
      const a = tok[i];
      const b = tok[j];
      if (a < 0 || b < 0) return table.get(s.slice(i, next[j]));
      let r = pairs.get(a, b);
      if (r === MISSING) {
        r = table.get(s.slice(i, next[j])) ?? -1;
        pairs.set(a, b, r);
      }
      return r < 0 ? undefined : r;
    };
    // Pending pairs grouped by rank; ranks ordered by a small heap. Merging the pairs of one rank
    // left to right is what "lowest rank, leftmost first" does, as long as no lower rank appears:
    // a merge never creates a pair of its own rank (that token would be longer), and when it creates
    // a lower one, the rest of this rank waits until the lower ones are done.
    const buckets = new Map<number, Bucket>();
    const ranks = new KeyHeap(64);
    const add = (r: number, i: number): void => {
      let b = buckets.get(r);
      if (!b) {
        b = { at: [], from: 0, sorted: true, queued: false };
        buckets.set(r, b);
      }
      if (b.at.length && i < b.at[b.at.length - 1]) b.sorted = false;
      b.at.push(i);
      if (!b.queued) {
        b.queued = true;
        ranks.push(r);
      }
    };
    for (let i = 0; i + 1 < n; i++) {
      const r = pairRank(i);
      if (r !== undefined) add(r, i);
    }
    let parts = n;
    while (ranks.size) {
      const r = ranks.pop();
      const b = buckets.get(r)!;
      const at = b.from ? b.at.slice(b.from) : b.at;
      if (!b.sorted) at.sort((x, y) => x - y);
      b.at = [];
      b.from = 0;
      b.sorted = true;
      b.queued = false;
      for (let k = 0; k < at.length; k++) {
        const i = at[k];
        if (next[i] < 0 || pairRank(i) !== r) continue; // stale: the pair changed since it was queued
        const j = next[i];
        next[i] = next[j];
        next[j] = -1;
        tok[i] = r;
        if (next[i] < n) prev[next[i]] = i;
        parts--;
        let lower = false;
        const after = pairRank(i);
        if (after !== undefined) {
          add(after, i);
          lower = after < r;
        }
        const p = prev[i];
        if (p >= 0) {
          const before = pairRank(p);
          if (before !== undefined) {
            add(before, p);
            lower ||= before < r;
          }
        }
        if (lower && k + 1 < at.length) {
          // a lower rank appeared: it goes first; the rest of this rank (all to the right) waits
          b.at = at;
          b.from = k + 1;
          b.queued = true;
          ranks.push(r);
          break;
        }
      }
    }
    return parts;
  };
}
