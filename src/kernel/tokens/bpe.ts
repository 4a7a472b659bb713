/**
 * Byte-pair counting over js-tiktoken's rank files. The ranks live in typed arrays: every token's
 * bytes one after another in rank order, their offsets, and an open-addressing hash table of ranks,
 * so a lookup hashes a range of a piece without slicing it, and the table can be written to a file
 * at build time and read back in milliseconds (tokens/rank-file.ts). Pieces are "binary strings" (one
 * char per byte). The merge rule is js-tiktoken's: repeatedly merge the adjacent pair with the lowest
 * rank, leftmost first; the number of parts left is the token count. Tests compare against js-tiktoken.
 */

export interface RankFile {
  pat_str: string;
  special_tokens: Record<string, number>;
  bpe_ranks: string;
}

export interface RankTable {
  /** Every token's bytes, one after another in rank order. */
  bytes: Uint8Array;
  /** Rank r's bytes are bytes[offsets[r]] up to bytes[offsets[r + 1]]. */
  offsets: Uint32Array;
  /** Open addressing by hashRange: rank + 1 in each used slot, 0 in an empty one; the length is a power of two. */
  slots: Int32Array;
  /** Length in bytes of the longest token: longer pairs are never merged. */
  maxTokenBytes: number;
  /** Memoised pair ranks by (left token, right token), filled by long pieces. */
  pairs?: Map<number, number>;
}

/** Pair ranks remembered per table. */
const MAX_PAIRS = 2_000_000;
const PAIR_SHIFT = 2 ** 20;

/** FNV-1a over the chars (bytes) of bin from start to end. */
function hashRange(bin: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bin.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The rank of the token whose bytes are bin[start..end), or -1. */
export function rankOf(table: RankTable, bin: string, start: number, end: number): number {
  const { bytes, offsets, slots } = table;
  const length = end - start;
  const mask = slots.length - 1;
  for (let slot = hashRange(bin, start, end) & mask; ; slot = (slot + 1) & mask) {
    const rank = slots[slot] - 1;
    if (rank < 0) return -1;
    const from = offsets[rank];
    if (offsets[rank + 1] - from !== length) continue;
    let i = 0;
    while (i < length && bytes[from + i] === bin.charCodeAt(start + i)) i++;
    if (i === length) return rank;
  }
}

/** A table over tokens given as binary strings in rank order (ranks 0, 1, 2, …). */
function rankTableOf(tokens: readonly string[]): RankTable {
  let size = 0;
  for (const token of tokens) size += token.length;
  const bytes = new Uint8Array(size);
  const offsets = new Uint32Array(tokens.length + 1);
  // At most half full, so probes stay short.
  const slots = new Int32Array(2 ** Math.ceil(Math.log2(Math.max(16, tokens.length * 2))));
  const mask = slots.length - 1;
  let at = 0;
  let maxTokenBytes = 1;
  for (let rank = 0; rank < tokens.length; rank++) {
    const token = tokens[rank];
    offsets[rank] = at;
    for (let i = 0; i < token.length; i++) bytes[at++] = token.charCodeAt(i);
    if (token.length > maxTokenBytes) maxTokenBytes = token.length;
    let slot = hashRange(token, 0, token.length) & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = rank + 1;
  }
  offsets[tokens.length] = at;
  return { bytes, offsets, slots, maxTokenBytes };
}

/** Parse js-tiktoken's compact rank format: lines of `! <first rank> <base64 token> <base64 token> …`. */
export function buildRankTable(file: RankFile): RankTable {
  const tokens: string[] = [];
  for (const line of file.bpe_ranks.split('\n')) {
    if (line === '') continue;
    const fields = line.split(' ');
    const first = Number.parseInt(fields[1], 10);
    for (let i = 2; i < fields.length; i++) tokens[first + i - 2] = atob(fields[i]);
  }
  return rankTableOf(tokens);
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
  if (rankOf(table, bin, 0, n) >= 0) return 1;
  return n <= 64 ? mergeSmall(bin, table) : mergeLarge(bin, table);
}

function pairRank(bin: string, start: number, end: number, table: RankTable): number {
  if (end - start > table.maxTokenBytes) return NONE;
  const rank = rankOf(table, bin, start, end);
  return rank < 0 ? NONE : rank;
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
    token[i] = rankOf(table, bin, i, i + 1);
  }
  // The pair of part i and the part after it spans [i, end of that part); -1 when it is no token.
  const pairRankAt = (i: number): number => {
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
    rankAt[i] = pairRankAt(i);
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
    rankAt[i] = pairRankAt(i);
    if (rankAt[i] >= 0) heap.push(rankAt[i], i);
    const p = prev[i];
    if (p >= 0) {
      rankAt[p] = pairRankAt(p);
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
