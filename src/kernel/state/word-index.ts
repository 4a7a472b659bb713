/**
 * The word index: the words of every memory body (text/bm25.ts visitWords) as postings per stem, kept
 * in word-index.bin in the state folder, so a query reads the postings of its own terms and no file's
 * text. Keyed by each text's content hash: a changed file is indexed alone, and a text no file holds
 * any more drops out when the index is next written. A file written by another build, corrupt,
 * truncated, or not a regular file (a link is never followed, and replaced when written) is ignored
 * and rebuilt: the index only spares reading, it never changes an answer.
 */
import { crc32 } from 'node:zlib';
import { visitWords, type WordSink, type WordsKey } from '../text/bm25.js';
import { readStateBytes } from './folder.js';
import { writeStateFile } from '../store/write.js';

export const WORD_INDEX_FILE = 'word-index.bin';

/** The file's first bytes: the format; its build's fingerprint follows in the header. */
const MAGIC = Buffer.from('memctx word index 1\n', 'latin1');
/** Past this many bytes the file is not read (rebuilt instead). */
const MAX_INDEX_BYTES = 4 * 1024 * 1024 * 1024 - 1;

/** What the file's JSON header holds. */
interface Header {
  version: string;
  /** Content hash of each indexed text, by slot. */
  hashes: string[];
  /** Slots whose text has no bag (Chinese or Japanese characters: matched from the text). */
  nobag: number[];
  /** The postings' keys, sorted: a stem, or `stem\0word` for an odd word (bm25.ts FieldBag). */
  keys: string[];
}

/** A key's postings: count per slot (0 where the text does not hold it). */
type Postings = Int32Array;

const ODD = '\u0000';
/** Pairs (key, count) per chunk of a Gathered after its first: 4 MB. */
const PAIRS_CHUNK = 1 << 19;

/** A growing byte buffer for varints. */
class Bytes {
  buf: Uint8Array;
  size = 0;

  constructor(room: number) {
    this.buf = new Uint8Array(Math.max(16, room));
  }

  /** Append bytes[start, end) as they are. */
  copy(bytes: Uint8Array, start: number, end: number): void {
    if (this.size + end - start > this.buf.length) {
      const more = new Uint8Array(Math.max(this.buf.length * 2, this.size + end - start));
      more.set(this.buf.subarray(0, this.size));
      this.buf = more;
    }
    this.buf.set(bytes.subarray(start, end), this.size);
    this.size += end - start;
  }

  varint(n: number): void {
    if (this.size + 5 > this.buf.length) {
      const more = new Uint8Array(this.buf.length * 2);
      more.set(this.buf);
      this.buf = more;
    }
    while (n >= 0x80) {
      this.buf[this.size++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    this.buf[this.size++] = n;
  }
}

/** Postings as bytes: for each slot holding the key, ascending, the gap from the last slot (first: from `last`) and the count. */
function encodePostings(pairs: Int32Array, from: number, to: number, out: Bytes, last = -1): void {
  for (let k = from; k < to; k += 2) {
    out.varint(pairs[k] - last);
    out.varint(pairs[k + 1]);
    last = pairs[k];
  }
}

/** Decode postings bytes [start, end) into `visit(slot, count)`; false when they are malformed. */
function decodePostings(bytes: Uint8Array, start: number, end: number, slots: number, visit: (slot: number, count: number) => void): boolean {
  let at = start;
  let slot = -1;
  const next = (): number => {
    let n = 0;
    let scale = 1;
    for (;;) {
      if (at >= end || scale > 2 ** 35) return -1;
      const b = bytes[at++];
      n += (b & 0x7f) * scale;
      if (b < 0x80) return n;
      scale *= 128;
    }
  };
  while (at < end) {
    const gap = next();
    const count = next();
    if (gap <= 0 || count <= 0) return false;
    slot += gap;
    if (slot >= slots) return false;
    visit(slot, count);
  }
  return true;
}

/** The order of the keys in the file: by UTF-16 code units, as `<` compares strings. */
const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Index of the first key >= `key` (binary search over sorted keys). */
function lowerBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (keys[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

interface Loaded {
  header: Header;
  /** Where each key's postings start in `postings` (one more than the keys: the end). */
  offsets: Uint32Array;
  postings: Uint8Array;
}

/** The file's parts, checked (magic, build, checksum, offsets); undefined when it cannot be trusted. */
function parse(bytes: Buffer, version: string): Loaded | undefined {
  const fixed = MAGIC.length + 8;
  if (bytes.length < fixed || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  const jsonBytes = bytes.readUInt32LE(MAGIC.length);
  const sum = bytes.readUInt32LE(MAGIC.length + 4);
  if (fixed + jsonBytes > bytes.length || crc32(bytes.subarray(fixed)) !== sum) return undefined;
  const header = JSON.parse(bytes.toString('utf8', fixed, fixed + jsonBytes)) as Header;
  if (header.version !== version || !Array.isArray(header.hashes) || !Array.isArray(header.nobag) || !Array.isArray(header.keys)) return undefined;
  const start = Math.ceil((fixed + jsonBytes) / 4) * 4;
  const count = header.keys.length + 1;
  if (start + count * 4 > bytes.length) return undefined;
  // A copy, aligned for the Uint32Array view.
  const offsets = new Uint32Array(bytes.buffer.slice(bytes.byteOffset + start, bytes.byteOffset + start + count * 4));
  const postings = bytes.subarray(start + count * 4);
  for (let k = 1; k < count; k++) if (offsets[k] < offsets[k - 1]) return undefined;
  if (offsets[0] !== 0 || offsets[count - 1] !== postings.length) return undefined;
  return { header, offsets, postings };
}

/** The bytes of an index file (see parse): `postings(k)` gives key k's [slot, count, ...] pairs and the range of them. */
function encodeFile(version: string, hashes: string[], nobag: number[], keys: string[], postings: (k: number) => [Int32Array, number, number]): Buffer {
  let pairs = 0;
  for (let k = 0; k < keys.length; k++) pairs += postings(k)[2] - postings(k)[1];
  return writeFile(version, hashes, nobag, keys, pairs + 1024, (k, bytes) => {
    const [list, from, to] = postings(k);
    encodePostings(list, from, to, bytes);
  });
}

/** The bytes of an index file whose postings `write(k, bytes)` puts down key by key (`room`: about how many bytes). */
function writeFile(version: string, hashes: string[], nobag: number[], keys: string[], room: number, write: (k: number, bytes: Bytes) => void): Buffer {
  const json = Buffer.from(JSON.stringify({ version, hashes, nobag, keys } satisfies Header), 'utf8');
  const fixed = MAGIC.length + 8;
  const start = Math.ceil((fixed + json.length) / 4) * 4;
  const offsets = new Uint32Array(keys.length + 1);
  const bytes = new Bytes(room);
  for (let k = 0; k < keys.length; k++) {
    write(k, bytes);
    offsets[k + 1] = bytes.size;
  }
  const head = Buffer.alloc(start);
  MAGIC.copy(head);
  head.writeUInt32LE(json.length, MAGIC.length);
  json.copy(head, fixed);
  const out = Buffer.concat([head, Buffer.from(offsets.buffer), bytes.buf.subarray(0, bytes.size)], start + offsets.byteLength + bytes.size);
  out.writeUInt32LE(crc32(out.subarray(fixed)), MAGIC.length + 4);
  return out;
}

/**
 * Postings gathered while texts are indexed: (key, count) pairs, each key (a stem, or `stem\0word` for
 * an odd word) by its id, a text's after the text's slot; grouped by key once asked.
 */
class Gathered {
  readonly keys: string[] = [];
  readonly #ids = new Map<string, number>();
  /** Each key id of a stem id of the word table's current stems (-1: not looked up yet). */
  #byStem = new Int32Array(1 << 12).fill(-1);
  #stems: readonly string[] | undefined;
  /** Full chunks of pairs (never copied to grow: a cold index of 100,000 notes holds tens of millions). */
  #full: Int32Array[] = [];
  #pairs = new Int32Array(1 << 17);
  #size = 0;
  /** The pairs gathered. */
  #count = 0;
  /** Each text's slot and the number of the first of its pairs, in the order the texts were indexed (their slots ascending). */
  #texts: number[] = [];
  #grouped: { starts: Int32Array; pairs: Int32Array } | undefined;
  /** The odd words' keys of each stem. */
  readonly odd = new Map<string, string[]>();
  readonly #sink: WordSink = {
    stem: (sid, count, stems) => this.#add(this.#stemKey(sid, stems), count),
    odd: (word, stem, count) => this.#add(this.#oddKey(stem, word), count),
  };

  /** Index a text's words under `slot`: its wordsKey, or null when the text has no bag. Not after `grouped`. */
  index(slot: number, text: string): WordsKey | null {
    if (this.#grouped) throw new Error('word index: a text added after its postings were grouped');
    this.#texts.push(slot, this.#count);
    return visitWords(text, this.#sink);
  }

  #key(key: string): number {
    let id = this.#ids.get(key);
    if (id === undefined) {
      id = this.keys.length;
      this.keys.push(key);
      this.#ids.set(key, id);
    }
    return id;
  }

  #stemKey(sid: number, stems: readonly string[]): number {
    if (stems !== this.#stems) {
      this.#stems = stems;
      this.#byStem.fill(-1);
    }
    if (sid >= this.#byStem.length) {
      const more = new Int32Array(Math.max(sid + 1, this.#byStem.length * 2)).fill(-1);
      more.set(this.#byStem);
      this.#byStem = more;
    }
    let id = this.#byStem[sid];
    if (id < 0) id = this.#byStem[sid] = this.#key(stems[sid]);
    return id;
  }

  #oddKey(stem: string, word: string): number {
    const key = `${stem}${ODD}${word}`;
    if (!this.#ids.has(key)) {
      const odd = this.odd.get(stem);
      if (odd) odd.push(key);
      else this.odd.set(stem, [key]);
    }
    return this.#key(key);
  }

  #add(key: number, count: number): void {
    if (this.#size + 2 > this.#pairs.length) {
      this.#full.push(this.#pairs);
      this.#pairs = new Int32Array(PAIRS_CHUNK);
      this.#size = 0;
    }
    const p = this.#pairs;
    p[this.#size] = key;
    p[this.#size + 1] = count;
    this.#size += 2;
    this.#count++;
  }

  /** The postings grouped by key (a counting sort, which keeps each key's slots ascending): key k's [slot, count] pairs are pairs[starts[k], starts[k + 1]). */
  grouped(): { starts: Int32Array; pairs: Int32Array } {
    if (this.#grouped) return this.#grouped;
    const chunks = [...this.#full, this.#pairs.subarray(0, this.#size)];
    const starts = new Int32Array(this.keys.length + 1);
    for (const p of chunks) for (let k = 0; k < p.length; k += 2) starts[p[k] + 1] += 2;
    for (let k = 0; k < this.keys.length; k++) starts[k + 1] += starts[k];
    const at = starts.slice(0, this.keys.length);
    const pairs = new Int32Array(starts[this.keys.length]);
    // The gathered pairs are done with as they are placed: their memory goes chunk by chunk.
    this.#full = [];
    this.#pairs = new Int32Array(0);
    this.#size = 0;
    const texts = this.#texts;
    // The text of the pair numbered `n`: the last whose first pair is numbered n or less (a text with no words has none).
    let text = 0;
    let slot = -1;
    let n = 0;
    for (let c = 0; c < chunks.length; c++) {
      const p = chunks[c];
      for (let k = 0; k < p.length; k += 2, n++) {
        while (text < texts.length && texts[text + 1] <= n) {
          slot = texts[text];
          text += 2;
        }
        const i = at[p[k]];
        pairs[i] = slot;
        pairs[i + 1] = p[k + 1];
        at[p[k]] = i + 2;
      }
      chunks[c] = new Int32Array(0);
    }
    this.#grouped = { starts, pairs };
    return this.#grouped;
  }

  /** The pairs of a key, or undefined when no text indexed now holds it. */
  pairsOf(key: string): [Int32Array, number, number] | undefined {
    const id = this.#ids.get(key);
    if (id === undefined) return undefined;
    const { starts, pairs } = this.grouped();
    return [pairs, starts[id], starts[id + 1]];
  }
}

/** A text to index: its content hash and (read on demand) its words' text. */
export interface IndexedText {
  readonly hash: string;
  /** The text to index; undefined when it cannot be read now (then it is neither indexed nor kept). */
  indexText(): string | undefined;
  /** Told the text's wordsKey (text/bm25.ts) when it is indexed now and has a bag. */
  indexedWords?(key: WordsKey): void;
}

/** How a text's words are counted for a query: the same counts as its fieldBag's (bm25.ts FieldBag.count). */
export type WordCount = (stem: string, prefixes: readonly string[]) => number;

export interface WordIndex {
  /** `read`, `missing` or `rebuilt` (corrupt, truncated, from another build, or not a regular file). */
  readonly status: 'read' | 'missing' | 'rebuilt';
  /** Texts indexed in this run (not found in the file). */
  readonly added: number;
  /** The count function for a text given to `use`, or null when the text has no bag (or could not be read). */
  counter(hash: string): WordCount | null;
  /** Write the index when it changed (texts added or gone). Throws on I/O errors. */
  save(): Promise<void>;
}

/**
 * The word index of a state folder for these texts: read from word-index.bin, with every text it does
 * not hold indexed now. `dir` undefined: no state folder (nothing is read or written).
 */
export function useWordIndex(dir: string | undefined, version: string, texts: readonly IndexedText[]): WordIndex {
  return openWordIndex(dir, version).use(texts);
}

/** A word index read from its file, to which texts are added as they are read (a scan that keeps no text), then used. */
export interface WordIndexBuilder {
  /** Whether the index holds a text with this content hash. */
  has(hash: string): boolean;
  /** Index a text now (one the index does not hold): its wordsKey, or null when it has no bag. */
  add(hash: string, text: string): WordsKey | null;
  /** The index for these texts: those it does not hold yet are indexed now (useWordIndex). */
  use(texts: readonly IndexedText[]): WordIndex;
}

/** The word index of a state folder, read from word-index.bin (or empty), for texts to be added and then used. */
export function openWordIndex(dir: string | undefined, version: string): WordIndexBuilder {
  const bytes = dir === undefined ? undefined : readStateBytes(dir, WORD_INDEX_FILE, MAX_INDEX_BYTES);
  let loaded: Loaded | undefined;
  try {
    loaded = bytes === undefined ? undefined : parse(bytes, version);
  } catch {
    loaded = undefined;
  }
  const status = bytes === undefined ? 'missing' : loaded ? 'read' : 'rebuilt';
  const header = loaded?.header ?? { version, hashes: [], nobag: [], keys: [] };
  const hashes = [...header.hashes];
  const slotOf = new Map<string, number>();
  hashes.forEach((hash, slot) => slotOf.set(hash, slot));
  const nobag = new Set(header.nobag);
  const fromFile = hashes.length;
  const added = new Gathered();
  const add = (hash: string, text: string): WordsKey | null => {
    const slot = hashes.length;
    hashes.push(hash);
    slotOf.set(hash, slot);
    const key = added.index(slot, text);
    if (!key) nobag.add(slot);
    return key;
  };
  return {
    has: (hash) => slotOf.has(hash),
    add,
    use(texts) {
      const usedSlots: number[] = [];
      for (const item of texts) {
        let slot = slotOf.get(item.hash);
        if (slot === undefined) {
          const text = item.indexText();
          if (text === undefined) continue;
          const key = add(item.hash, text);
          if (key) item.indexedWords?.(key);
          slot = hashes.length - 1;
        }
        usedSlots.push(slot);
      }
      // Marked once every text is added: a byte per slot, not a set of numbers.
      const used = new Uint8Array(hashes.length);
      for (const slot of usedSlots) used[slot] = 1;
      return indexOf({ dir, version, loaded, status, hashes, slotOf, nobag, fromFile, added, used });
    },
  };
}

/** What an opened index holds once its texts are known. */
interface Opened {
  dir: string | undefined;
  version: string;
  loaded: Loaded | undefined;
  status: WordIndex['status'];
  hashes: string[];
  slotOf: ReadonlyMap<string, number>;
  nobag: Set<number>;
  /** Slots read from the file (the rest were added in this run). */
  fromFile: number;
  added: Gathered;
  /** 1 for each slot whose text is used in this run. */
  used: Uint8Array;
}

/** The index over an opened file and this run's texts: counts for a query, and its save. */
function indexOf(opened: Opened): WordIndex {
  const { dir, version, loaded, status, hashes, slotOf, nobag, fromFile, added, used } = opened;
  const header = loaded?.header ?? { version, hashes: [], nobag: [], keys: [] };
  const slots = hashes.length;
  const keys = header.keys;
  let usedCount = 0;
  for (let slot = 0; slot < slots; slot++) usedCount += used[slot];
  let corrupt = false;
  const decoded = new Map<string, Postings>();
  /** A key's postings over every slot: the file's and this run's. */
  const postingsOf = (key: string): Postings => {
    let counts = decoded.get(key);
    if (counts) return counts;
    counts = new Int32Array(slots);
    const at = loaded ? lowerBound(keys, key) : keys.length;
    if (loaded && keys[at] === key) {
      const into = counts;
      if (!decodePostings(loaded.postings, loaded.offsets[at], loaded.offsets[at + 1], fromFile, (slot, n) => (into[slot] = n))) corrupt = true;
    }
    const mine = added.pairsOf(key);
    if (mine) for (let k = mine[1]; k < mine[2]; k += 2) counts[mine[0][k]] = mine[0][k + 1];
    decoded.set(key, counts);
    return counts;
  };
  const oddKeys = new Map<string, string[]>();
  /** The odd words' keys of a stem (`stem\0word`): contiguous in the sorted keys, and this run's. */
  const oddOf = (stem: string): string[] => {
    let found = oddKeys.get(stem);
    if (found) return found;
    found = [];
    const prefix = `${stem}${ODD}`;
    for (let at = lowerBound(keys, prefix); at < keys.length && keys[at].startsWith(prefix); at++) found.push(keys[at]);
    for (const key of added.odd.get(stem) ?? []) if (!found.includes(key)) found.push(key);
    oddKeys.set(stem, found);
    return found;
  };
  const counter = (slot: number): WordCount => (stem, prefixes) => {
    let n = postingsOf(stem)[slot];
    for (const key of oddOf(stem)) {
      const word = key.slice(stem.length + 1);
      if (prefixes.some((p) => word.startsWith(p))) n += postingsOf(key)[slot];
    }
    return n;
  };
  return {
    status,
    added: slots - fromFile,
    counter(hash) {
      const slot = slotOf.get(hash);
      return slot === undefined || nobag.has(slot) || !used[slot] ? null : counter(slot);
    },
    async save() {
      if (dir === undefined) return;
      // Texts no file holds any more stay in the file (unread) until they are a quarter of it.
      const few = (slots - usedCount) * 4 <= slots;
      if (status === 'read' && slots === fromFile && few && !corrupt) return;
      await writeStateFile(dir, WORD_INDEX_FILE, loaded && !corrupt && few ? appended() : rewrite());
    },
  };

  /** The file's index with this run's texts added: each key's postings copied as they are, the new ones after them. */
  function appended(): Buffer {
    const file = loaded!;
    const mine = [...added.keys].sort(byCodeUnits);
    const merged: string[] = [];
    for (let i = 0, j = 0; i < keys.length || j < mine.length; ) {
      const next = j >= mine.length || (i < keys.length && keys[i] <= mine[j]) ? keys[i++] : mine[j++];
      if (merged[merged.length - 1] !== next) merged.push(next);
    }
    let at = 0;
    return writeFile(version, hashes, [...nobag], merged, file.postings.length + 1024, (k, bytes) => {
      const key = merged[k];
      let last = -1;
      while (at < keys.length && keys[at] < key) at++;
      if (keys[at] === key) {
        const start = file.offsets[at];
        const end = file.offsets[at + 1];
        bytes.copy(file.postings, start, end);
        decodePostings(file.postings, start, end, fromFile, (slot) => (last = slot));
      }
      const pairs = added.pairsOf(key);
      if (pairs) encodePostings(pairs[0], pairs[1], pairs[2], bytes, last);
    });
  }

  /** The index of the texts used in this run: the file's postings of them and this run's, their slots renumbered in order. */
  function rewrite(): Buffer {
    const renumber = new Int32Array(slots).fill(-1);
    const liveHashes: string[] = [];
    // A file whose postings proved malformed keeps none of its texts: they are indexed again next time.
    for (let slot = corrupt ? fromFile : 0; slot < slots; slot++) {
      if (!used[slot]) continue;
      renumber[slot] = liveHashes.length;
      liveHashes.push(hashes[slot]);
    }
    const liveNobag = [...nobag].filter((slot) => renumber[slot] >= 0).map((slot) => renumber[slot]);
    // Only this run's texts, none dropped: the gathered postings as they are.
    if (!loaded && !corrupt && liveHashes.length === slots) {
      const { starts, pairs } = added.grouped();
      const order = added.keys.map((_, k) => k).sort((a, b) => byCodeUnits(added.keys[a], added.keys[b]));
      return encodeFile(version, liveHashes, liveNobag, order.map((k) => added.keys[k]), (k) => [pairs, starts[order[k]], starts[order[k] + 1]]);
    }
    const merged = new Set([...(loaded && !corrupt ? keys : []), ...added.keys]);
    const sorted = [...merged].sort(byCodeUnits);
    const out: number[] = [];
    const kept: string[] = [];
    const lists: Int32Array[] = [];
    for (const key of sorted) {
      out.length = 0;
      const at = loaded && !corrupt ? lowerBound(keys, key) : keys.length;
      if (keys[at] === key) {
        decodePostings(loaded!.postings, loaded!.offsets[at], loaded!.offsets[at + 1], fromFile, (slot, n) => {
          if (renumber[slot] >= 0) out.push(renumber[slot], n);
        });
      }
      const mine = added.pairsOf(key);
      if (mine) for (let k = mine[1]; k < mine[2]; k += 2) if (renumber[mine[0][k]] >= 0) out.push(renumber[mine[0][k]], mine[0][k + 1]);
      if (out.length === 0) continue;
      kept.push(key);
      lists.push(Int32Array.from(out));
    }
    return encodeFile(version, liveHashes, liveNobag, kept, (k) => [lists[k], 0, lists[k].length]);
  }
}
