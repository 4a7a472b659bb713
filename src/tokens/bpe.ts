/**
 * Byte-pair counting over js-tiktoken's rank files. js-tiktoken's own `Tiktoken` constructor turns
 * every rank into a comma-joined byte string (about 0.9 s for o200k_base); here each token is kept
 * as a "binary string" (one char per byte, from `atob`), which builds in about 0.1 s. The merge rule
 * is js-tiktoken's: repeatedly merge the adjacent pair with the lowest rank, leftmost first; the
 * number of parts left is the token count. Tests compare against js-tiktoken's `encode`.
 */

export interface RankFile {
  pat_str: string;
  special_tokens: Record<string, number>;
  bpe_ranks: string;
}

export interface RankTable {
  ranks: Map<string, number>;
  /** Length in bytes of the longest token: longer pairs are never merged. */
  maxTokenBytes: number;
  /** Memoised pair ranks by (left token, right token), filled by long pieces. */
  pairs?: Map<number, number>;
}

/** Pair ranks remembered per table. */
const MAX_PAIRS = 2_000_000;
const PAIR_SHIFT = 2 ** 20;

/** Parse js-tiktoken's compact rank format: lines of `! <first rank> <base64 token> <base64 token> …`. */
export function buildRankTable(file: RankFile): RankTable {
  const ranks = new Map<string, number>();
  let maxTokenBytes = 1;
  for (const line of file.bpe_ranks.split('\n')) {
    if (line === '') continue;
    const fields = line.split(' ');
    const first = Number.parseInt(fields[1], 10);
    for (let i = 2; i < fields.length; i++) {
      const token = atob(fields[i]);
      ranks.set(token, first + i - 2);
      if (token.length > maxTokenBytes) maxTokenBytes = token.length;
    }
  }
  return { ranks, maxTokenBytes };
}

/** A piece's UTF-8 bytes as a binary string (lone surrogates become U+FFFD, as TextEncoder does). */
export function utf8Binary(piece: string): string {
  for (let i = 0; i < piece.length; i++) {
    if (piece.charCodeAt(i) > 0x7f) return Buffer.from(piece, 'utf8').toString('latin1');
  }
  return piece;
}

const NONE = Number.POSITIVE_INFINITY;

/** Tokens in one piece (a binary string). Short pieces merge in place; long ones use a heap. */
export function countPieceTokens(bin: string, table: RankTable): number {
  const n = bin.length;
  if (n <= 1) return n;
  if (table.ranks.has(bin)) return 1;
  return n <= 64 ? mergeSmall(bin, table) : mergeLarge(bin, table);
}

function pairRank(bin: string, start: number, end: number, table: RankTable): number {
  if (end - start > table.maxTokenBytes) return NONE;
  return table.ranks.get(bin.slice(start, end)) ?? NONE;
}

/** js-tiktoken's loop, keeping pair ranks between rounds: O(n²) but fastest for short pieces. */
function mergeSmall(bin: string, table: RankTable): number {
  const starts: number[] = [];
  const ranks: number[] = [];
  for (let i = 0; i <= bin.length; i++) starts.push(i);
  for (let i = 0; i < bin.length - 1; i++) ranks.push(pairRank(bin, i, i + 2, table));
  while (ranks.length > 0) {
    let best = 0;
    for (let i = 1; i < ranks.length; i++) if (ranks[i] < ranks[best]) best = i;
    if (ranks[best] === NONE) break;
    starts.splice(best + 1, 1);
    ranks.splice(best, 1);
    if (best < ranks.length) ranks[best] = pairRank(bin, starts[best], starts[best + 2], table);
    if (best > 0) ranks[best - 1] = pairRank(bin, starts[best - 1], starts[best + 1], table);
  }
  return starts.length - 1;
}

/**
 * The same merges in O(n log n): parts form a linked list, candidate merges sit in a min-heap keyed
 * by (rank, start), so ties go to the leftmost pair exactly as in the loop above. A heap entry is
 * stale when its part is gone or its pair rank changed (a longer pair always has another rank).
 * Every part is a token, so a pair's rank is memoised by the two token ranks: long repetitive
 * pieces (a 5 MB run of one character) then cost numeric lookups instead of string hashing.
 */
function mergeLarge(bin: string, table: RankTable): number {
  const n = bin.length;
  const next = new Int32Array(n);
  const prev = new Int32Array(n);
  const token = new Int32Array(n);
  const rankAt = new Int32Array(n);
  const alive = new Uint8Array(n).fill(1);
  const pairs = table.pairs ?? (table.pairs = new Map<number, number>());
  for (let i = 0; i < n; i++) {
    next[i] = i + 1;
    prev[i] = i - 1;
    token[i] = table.ranks.get(bin[i])!;
  }
  // The pair of part i and the part after it spans [i, end of that part); -1 when it is no token.
  const rankOf = (i: number): number => {
    const j = next[i];
    if (j >= n) return -1;
    const key = token[i] * PAIR_SHIFT + token[j];
    let rank = pairs.get(key);
    if (rank === undefined) {
      const found = pairRank(bin, i, next[j], table);
      rank = found === NONE ? -1 : found;
      if (pairs.size < MAX_PAIRS) pairs.set(key, rank);
    }
    return rank;
  };
  const heap = new PairHeap(n);
  for (let i = 0; i < n; i++) {
    rankAt[i] = rankOf(i);
    if (rankAt[i] >= 0) heap.push(rankAt[i], i);
  }
  let parts = n;
  while (heap.size > 0) {
    const rank = heap.topRank;
    const i = heap.topPosition;
    heap.pop();
    if (!alive[i] || rankAt[i] !== rank) continue;
    const j = next[i];
    alive[j] = 0;
    next[i] = next[j];
    if (next[j] < n) prev[next[j]] = i;
    token[i] = rank;
    parts--;
    rankAt[i] = rankOf(i);
    if (rankAt[i] >= 0) heap.push(rankAt[i], i);
    const p = prev[i];
    if (p >= 0) {
      rankAt[p] = rankOf(p);
      if (rankAt[p] >= 0) heap.push(rankAt[p], p);
    }
  }
  return parts;
}

/** A binary min-heap of (rank, position) pairs, ordered by rank then position. */
class PairHeap {
  private ranks: Int32Array;
  private positions: Int32Array;
  size = 0;

  constructor(capacity: number) {
    this.ranks = new Int32Array(Math.max(16, capacity));
    this.positions = new Int32Array(Math.max(16, capacity));
  }

  /** The rank of the top entry; read `topPosition` before `pop`. */
  get topRank(): number {
    return this.ranks[0];
  }

  get topPosition(): number {
    return this.positions[0];
  }

  push(rank: number, position: number): void {
    if (this.size === this.ranks.length) this.grow();
    const ranks = this.ranks;
    const positions = this.positions;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pr = ranks[parent];
      if (pr < rank || (pr === rank && positions[parent] < position)) break;
      ranks[i] = pr;
      positions[i] = positions[parent];
      i = parent;
    }
    ranks[i] = rank;
    positions[i] = position;
  }

  pop(): void {
    const last = --this.size;
    if (last > 0) this.siftDown(0, this.ranks[last], this.positions[last]);
  }

  private siftDown(start: number, rank: number, position: number): void {
    const ranks = this.ranks;
    const positions = this.positions;
    const size = this.size;
    const half = size >> 1;
    let i = start;
    while (i < half) {
      let child = 2 * i + 1;
      const right = child + 1;
      if (right < size && (ranks[right] < ranks[child] || (ranks[right] === ranks[child] && positions[right] < positions[child]))) child = right;
      const cr = ranks[child];
      if (cr > rank || (cr === rank && positions[child] > position)) break;
      ranks[i] = cr;
      positions[i] = positions[child];
      i = child;
    }
    ranks[i] = rank;
    positions[i] = position;
  }

  private grow(): void {
    const ranks = new Int32Array(this.ranks.length * 2);
    const positions = new Int32Array(this.positions.length * 2);
    ranks.set(this.ranks);
    positions.set(this.positions);
    this.ranks = ranks;
    this.positions = positions;
  }
}
