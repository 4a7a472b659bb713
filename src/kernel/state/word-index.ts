/**
 * The word index: the words of every memory body (text/bm25.ts visitWords) as postings per stem, kept
 * in word-index.bin in the state folder, so a query reads the postings of its own terms and no file's
 * text. Keyed by each text's content hash: a changed file is indexed alone, and a text no file holds
 * any more drops out when the index is next written. A file written by another build, corrupt,
 * truncated, or not a regular file (a link is never followed, and replaced when written) is ignored
 * and rebuilt: the index only spares reading, it never changes an answer.
 */
import type { Stats } from 'node:fs';
import { crc32 } from 'node:zlib';
import { visitWords, type WordSink, type WordsKey } from '../text/bm25.js';
import { withStateFile } from './folder.js';
import { readAt } from '../store/read-file.js';
import { writeStateFile } from '../store/write.js';
import { ListedOrder, type Cursor } from '../values.js';

export const WORD_INDEX_FILE = 'word-index.bin';

/**
 * The file: MAGIC, the head's length and checksum (4 bytes each), the head, then each key's postings.
 * The head: six counts (slots, slots with no bag, keys, the UTF-8 bytes of the build's fingerprint, the
 * UTF-16 units of the hashes and keys, and their encoding: 0 Latin-1 for ASCII, else 1 UTF-16), the
 * fingerprint, the hashes and keys one after another, then, 4-aligned, each one's length, the slots
 * with no bag, where each key's postings start (one more: the end) and each key's postings' checksum.
 * A query reads the head and its own terms' postings, each checked as it is read.
 */
const MAGIC = Buffer.from('memctx word index 2\n', 'latin1');
const FIXED = MAGIC.length + 8;
const COUNTS = 6;
/** Past this many bytes the file is not read (rebuilt instead). */
const MAX_INDEX_BYTES = 4 * 1024 * 1024 * 1024 - 1;

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

/** An index file's head as read (checked), and its postings read on demand. */
interface Loaded {
  hashes: string[];
  nobag: number[];
  /** The postings' keys, sorted: a stem, or `stem\0word` for an odd word (bm25.ts FieldBag). */
  keys: string[];
  /** Where each key's postings start, from the first key's (one more than the keys: the end). */
  offsets: Uint32Array;
  /** Key k's postings bytes, checked; undefined when they cannot be trusted (or the file was replaced since its head was read). */
  postings(k: number): Uint8Array | undefined;
  /** Every key's postings (at `offsets`), each checked; undefined when one cannot be trusted. */
  all(): Uint8Array | undefined;
}

/** The same file as when it was first opened (the state folder's files are replaced, never changed in place). */
const sameFile = (a: Stats, b: Stats) => a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;

/** Bytes [position, position + length) of the index file first opened with stat `opened`; undefined when it is not that file now or is cut short. */
function readPart(dir: string, opened: Stats, position: number, length: number): Buffer | undefined {
  const part = withStateFile(dir, WORD_INDEX_FILE, MAX_INDEX_BYTES, (fd, stat) => (sameFile(stat, opened) ? readAt(fd, position, length) : undefined));
  return part?.length === length ? part : undefined;
}

/** The head's bytes of an open index file, its checksum checked; undefined when it is not an index of this format. */
function readHead(fd: number, size: number): Buffer | undefined {
  if (size < FIXED) return undefined;
  const fixed = readAt(fd, 0, FIXED);
  if (fixed.length < FIXED || !fixed.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  const length = fixed.readUInt32LE(MAGIC.length);
  if (FIXED + length > size) return undefined;
  const head = readAt(fd, FIXED, length);
  return head.length === length && crc32(head) === fixed.readUInt32LE(MAGIC.length + 4) ? head : undefined;
}

/** The index file's head (build, counts, offsets checked) and its postings on demand; undefined when it cannot be trusted. */
function parseHead(dir: string, stat: Stats, head: Buffer, version: string): Loaded | undefined {
  if (head.length < COUNTS * 4) return undefined;
  const [slots, nobagCount, keyCount, versionBytes, units, wide] = Array.from({ length: COUNTS }, (_, i) => head.readUInt32LE(i * 4));
  const textBytes = wide ? units * 2 : units;
  let at = COUNTS * 4 + versionBytes + textBytes;
  if (at > head.length || head.toString('utf8', COUNTS * 4, COUNTS * 4 + versionBytes) !== version) return undefined;
  const text = head.toString(wide ? 'utf16le' : 'latin1', at - textBytes, at);
  at = Math.ceil(at / 4) * 4;
  if (at + (slots + nobagCount + 3 * keyCount + 1) * 4 !== head.length) return undefined;
  // Copies: a view needs its offset aligned to 4.
  const numbers = (n: number) => new Uint32Array(head.buffer.slice(head.byteOffset + at, head.byteOffset + (at += n * 4)));
  const lengths = numbers(slots + keyCount);
  let unit = 0;
  const strings = Array.from(lengths, (n) => text.slice(unit, (unit += n)));
  const nobag = Array.from(numbers(nobagCount));
  const offsets = numbers(keyCount + 1);
  const sums = numbers(keyCount);
  const base = FIXED + head.length;
  if (unit !== units || offsets[0] !== 0 || offsets[keyCount] !== stat.size - base || nobag.some((slot) => slot >= slots)) return undefined;
  for (let k = 1; k <= keyCount; k++) if (offsets[k] < offsets[k - 1]) return undefined;
  return {
    hashes: strings.slice(0, slots),
    nobag,
    keys: strings.slice(slots),
    offsets,
    postings(k) {
      const part = readPart(dir, stat, base + offsets[k], offsets[k + 1] - offsets[k]);
      return part && crc32(part) === sums[k] ? part : undefined;
    },
    all() {
      const part = readPart(dir, stat, base, offsets[keyCount]);
      for (let k = 0; part && k < keyCount; k++) if (crc32(part.subarray(offsets[k], offsets[k + 1])) !== sums[k]) return undefined;
      return part;
    },
  };
}

/** The index file of a state folder: `found` false when there is none (or it is not a regular file); `loaded` when it can be trusted. */
function openFile(dir: string | undefined, version: string): { found: boolean; loaded?: Loaded } {
  const opened = dir === undefined ? undefined : withStateFile(dir, WORD_INDEX_FILE, MAX_INDEX_BYTES, (fd, stat) => ({ stat, head: readHead(fd, stat.size) }));
  if (!opened) return { found: false };
  try {
    return { found: true, loaded: opened.head && parseHead(dir!, opened.stat, opened.head, version) };
  } catch {
    return { found: true };
  }
}

/** Each key's postings bytes, one after another: key k's are bytes[offsets[k], offsets[k + 1]). */
interface Section {
  bytes: Uint8Array;
  offsets: Uint32Array;
}

/** The postings of `keys` put down key by key by `write(k, bytes)` (`room`: about how many bytes). */
function section(keys: number, room: number, write: (k: number, bytes: Bytes) => void): Section {
  const offsets = new Uint32Array(keys + 1);
  const bytes = new Bytes(room);
  for (let k = 0; k < keys; k++) {
    write(k, bytes);
    offsets[k + 1] = bytes.size;
  }
  return { bytes: bytes.buf.subarray(0, bytes.size), offsets };
}

/** The bytes of an index file (see parseHead): `postings(k)` gives key k's [slot, count, ...] pairs and the range of them. */
function encodeFile(version: string, hashes: string[], nobag: number[], keys: string[], postings: (k: number) => [Int32Array, number, number]): Buffer {
  let pairs = 0;
  for (let k = 0; k < keys.length; k++) pairs += postings(k)[2] - postings(k)[1];
  return writeFile(version, hashes, nobag, keys, section(keys.length, pairs + 1024, (k, bytes) => {
    const [list, from, to] = postings(k);
    encodePostings(list, from, to, bytes);
  }));
}

/** The bytes of an index file with these keys' postings. */
function writeFile(version: string, hashes: string[], nobag: number[], keys: string[], postings: Section): Buffer {
  const { bytes, offsets } = postings;
  const sums = new Uint32Array(keys.length);
  for (let k = 0; k < keys.length; k++) sums[k] = crc32(bytes.subarray(offsets[k], offsets[k + 1]));
  const joined = hashes.join('') + keys.join('');
  // ASCII (the usual hashes and words) as Latin-1, a byte a unit; anything else as UTF-16, which keeps every string as it is.
  const wide = !/^[\x00-\x7f]*$/.test(joined);
  const texts = [Buffer.from(version, 'utf8'), Buffer.from(joined, wide ? 'utf16le' : 'latin1')];
  const numbers = [Uint32Array.from([...hashes, ...keys], (t) => t.length), Uint32Array.from(nobag), offsets, sums];
  const textEnd = COUNTS * 4 + texts[0].length + texts[1].length;
  const head = Buffer.alloc(Math.ceil(textEnd / 4) * 4 + numbers.reduce((n, a) => n + a.byteLength, 0));
  [hashes.length, nobag.length, keys.length, texts[0].length, joined.length, wide ? 1 : 0].forEach((n, i) => head.writeUInt32LE(n, i * 4));
  let at = COUNTS * 4;
  for (const t of texts) at += t.copy(head, at);
  at = Math.ceil(at / 4) * 4;
  for (const a of numbers) at += Buffer.from(a.buffer, a.byteOffset, a.byteLength).copy(head, at);
  const fixed = Buffer.alloc(FIXED);
  MAGIC.copy(fixed);
  fixed.writeUInt32LE(head.length, MAGIC.length);
  fixed.writeUInt32LE(crc32(head), MAGIC.length + 4);
  return Buffer.concat([fixed, head, bytes]);
}

/** The bytes of a varint (Bytes.varint). */
const varintBytes = (n: number): number => (n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5);

/** Put n down as a varint (Bytes.varint) at out[at]; where the next byte goes. */
function putVarint(out: Uint8Array, at: number, n: number): number {
  while (n >= 0x80) {
    out[at++] = (n & 0x7f) | 0x80;
    n >>>= 7;
  }
  out[at] = n;
  return at + 1;
}

/**
 * Postings gathered while texts are indexed: (key, count) pairs, each key (a stem, or `stem\0word` for
 * an odd word) by its id, a text's after the text's slot; encoded by key, as the file keeps them, once asked.
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
  /** The slot of the text being indexed. */
  #slot = -1;
  /** Per key id: the last slot gathered, and the bytes of its postings as the file keeps them (encodePostings). */
  #last = new Int32Array(1 << 12).fill(-1);
  #sizes = new Uint32Array(1 << 12);
  #encoded: (Section & { keys: string[]; place: Int32Array }) | undefined;
  /** The odd words' keys of each stem. */
  readonly odd = new Map<string, string[]>();
  readonly #sink: WordSink = {
    stem: (sid, count, stems) => this.#add(this.#stemKey(sid, stems), count),
    odd: (word, stem, count) => this.#add(this.#oddKey(stem, word), count),
  };

  /** Index a text's words under `slot`: its wordsKey, or null when the text has no bag. Not after `encoded`. */
  index(slot: number, text: string): WordsKey | null {
    if (this.#encoded) throw new Error('word index: a text added after its postings were encoded');
    this.#texts.push(slot, this.#count);
    this.#slot = slot;
    return visitWords(text, this.#sink);
  }

  #key(key: string): number {
    let id = this.#ids.get(key);
    if (id === undefined) {
      id = this.keys.length;
      this.keys.push(key);
      this.#ids.set(key, id);
      if (id >= this.#sizes.length) {
        const last = new Int32Array(id * 2).fill(-1);
        last.set(this.#last);
        this.#last = last;
        const sizes = new Uint32Array(id * 2);
        sizes.set(this.#sizes);
        this.#sizes = sizes;
      }
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
    this.#sizes[key] += varintBytes(this.#slot - this.#last[key]) + varintBytes(count);
    this.#last[key] = this.#slot;
  }

  /**
   * The postings by key as the file keeps them (encodePostings): the keys sorted, key k's bytes at
   * offsets[k], and the place there of each key id. Each key's bytes are counted as its pairs are
   * gathered, so one pass over the pairs puts each text's varints straight in its key's run: no pairs
   * grouped first, no bytes copied to grow.
   */
  encoded(): Section & { keys: string[]; place: Int32Array } {
    if (this.#encoded) return this.#encoded;
    const ids = this.keys.length;
    const order = Array.from({ length: ids }, (_, k) => k).sort((a, b) => byCodeUnits(this.keys[a], this.keys[b]));
    const place = new Int32Array(ids);
    for (let k = 0; k < ids; k++) place[order[k]] = k;
    const chunks = [...this.#full, this.#pairs.subarray(0, this.#size)];
    // Where each key's run starts, in the keys' sorted order.
    const offsets = new Uint32Array(ids + 1);
    for (let k = 0; k < ids; k++) offsets[k + 1] = offsets[k] + this.#sizes[order[k]];
    const at = new Uint32Array(ids);
    for (let k = 0; k < ids; k++) at[k] = offsets[place[k]];
    // The bytes; then the gathered pairs are done with: their memory goes.
    const bytes = new Uint8Array(offsets[ids]);
    this.#place(chunks, at, bytes);
    this.#full = [];
    this.#pairs = new Int32Array(0);
    this.#size = 0;
    this.#encoded = { keys: order.map((k) => this.keys[k]), place, bytes, offsets };
    return this.#encoded;
  }

  /** Each gathered pair as its key's next posting (the gap from the key's last slot, the count), written at at[key] (which moves on). */
  #place(chunks: readonly Int32Array[], at: Uint32Array, out: Uint8Array): void {
    const texts = this.#texts;
    const last = new Int32Array(at.length).fill(-1);
    // The text of the pair numbered `n`: the last whose first pair is numbered n or less (a text with no words has none).
    let text = 0;
    let slot = -1;
    let n = 0;
    for (const p of chunks) {
      for (let k = 0; k < p.length; k += 2, n++) {
        while (text < texts.length && texts[text + 1] <= n) {
          slot = texts[text];
          text += 2;
        }
        const key = p[k];
        const gap = slot - last[key];
        const count = p[k + 1];
        last[key] = slot;
        if (gap < 0x80 && count < 0x80) {
          // Most postings: a byte each.
          const a = at[key];
          out[a] = gap;
          out[a + 1] = count;
          at[key] = a + 2;
        } else at[key] = putVarint(out, putVarint(out, at[key], gap), count);
      }
    }
  }

  /** The pairs of a key, or undefined when no text indexed now holds it. */
  pairsOf(key: string): [Int32Array, number, number] | undefined {
    const id = this.#ids.get(key);
    if (id === undefined) return undefined;
    const { bytes, offsets, place } = this.encoded();
    const pairs: number[] = [];
    decodePostings(bytes, offsets[place[id]], offsets[place[id] + 1], 2 ** 31, (slot, count) => pairs.push(slot, count));
    return [Int32Array.from(pairs), 0, pairs.length];
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

export interface WordIndex {
  /** `read`, `missing` or `rebuilt` (corrupt, truncated, from another build, or not a regular file). */
  readonly status: 'read' | 'missing' | 'rebuilt';
  /** Texts indexed in this run (not found in the file). */
  readonly added: number;
  /** The slot of a text given to `use`, for `count`; undefined when the text has no bag (or could not be read). */
  slotOf(hash: string): number | undefined;
  /** How often a stem counts in the text at `slot` for a query whose terms' prefixes are `prefixes`: the same count as its fieldBag's (bm25.ts FieldBag.count). */
  count(slot: number, stem: string, prefixes: readonly string[]): number;
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
  const { found, loaded } = openFile(dir, version);
  const status = !found ? 'missing' : loaded ? 'read' : 'rebuilt';
  const hashes = loaded ? [...loaded.hashes] : [];
  // Texts are asked for in the order the file lists them (a scan's order, kept when the file is written).
  const slots = new ListedOrder(hashes.length, (slot) => hashes[slot]);
  const nobag = new Set(loaded?.nobag);
  const fromFile = hashes.length;
  const added = new Gathered();
  const add = (hash: string, text: string): WordsKey | null => {
    hashes.push(hash);
    const slot = slots.append(hash);
    const key = added.index(slot, text);
    if (!key) nobag.add(slot);
    return key;
  };
  return {
    has: (hash) => slots.find(hash, { next: 0 }) >= 0,
    add,
    use(texts) {
      const usedSlots: number[] = [];
      const fileTexts = new Array<IndexedText | undefined>(fromFile);
      const pass: Cursor = { next: 0 };
      for (const item of texts) {
        let slot = slots.find(item.hash, pass);
        if (slot < 0) {
          const text = item.indexText();
          if (text === undefined) continue;
          const key = add(item.hash, text);
          if (key) item.indexedWords?.(key);
          slot = hashes.length - 1;
        } else if (slot < fromFile) fileTexts[slot] = item;
        usedSlots.push(slot);
      }
      // Marked once every text is added: a byte per slot, not a set of numbers.
      const used = new Uint8Array(hashes.length);
      for (const slot of usedSlots) used[slot] = 1;
      return indexOf({ dir, version, loaded, status, hashes, slots, nobag, fromFile, fileTexts, added, used });
    },
  };
}

/** What an opened index holds once its texts are known. */
interface Opened {
  dir: string | undefined;
  version: string;
  loaded: Loaded | undefined;
  status: WordIndex['status'];
  /** Content hash of each indexed text, by slot. */
  hashes: string[];
  slots: ListedOrder;
  nobag: Set<number>;
  /** Slots read from the file (the rest were added in this run). */
  fromFile: number;
  /** The texts used in this run that the file holds, by slot (indexed again only if its postings prove bad). */
  fileTexts: readonly (IndexedText | undefined)[];
  added: Gathered;
  /** 1 for each slot whose text is used in this run. */
  used: Uint8Array;
}

/** The index over an opened file and this run's texts: counts for a query, and its save. */
function indexOf(opened: Opened): WordIndex {
  const { dir, version, loaded, status, hashes, nobag, fromFile, fileTexts, added, used } = opened;
  const slots = hashes.length;
  // The texts' slots are asked for in the scan's order too.
  const pass: Cursor = { next: 0 };
  const keys = loaded?.keys ?? [];
  /** Every key's postings in the file, once a save has read them all. */
  let whole: Uint8Array | undefined;
  /** The file's texts used in this run, indexed again once a posting of the file proved bad: its postings then come from these. */
  let fresh: Gathered | undefined;
  const reindex = (): Gathered => {
    fresh = new Gathered();
    for (let slot = 0; slot < fromFile; slot++) {
      const text = used[slot] ? fileTexts[slot]?.indexText() : undefined;
      if (text === undefined) used[slot] = 0;
      else fresh.index(slot, text);
    }
    return fresh;
  };
  /** A key's (slot, count) pairs from the file into `visit`, each key's checked as it is read (one that is not: the texts are indexed again). */
  const fromFilePairs = (key: string, visit: (slot: number, count: number) => void): void => {
    if (!loaded) return;
    if (!fresh) {
      const at = lowerBound(keys, key);
      if (keys[at] !== key) return;
      const bytes = whole ?? loaded.postings(at);
      const pairs: number[] = [];
      const good = bytes !== undefined && decodePostings(bytes, whole ? loaded.offsets[at] : 0, whole ? loaded.offsets[at + 1] : bytes.length, fromFile, (slot, n) => pairs.push(slot, n));
      if (good) for (let k = 0; k < pairs.length; k += 2) visit(pairs[k], pairs[k + 1]);
      if (good) return;
    }
    const mine = (fresh ?? reindex()).pairsOf(key);
    if (mine) for (let k = mine[1]; k < mine[2]; k += 2) visit(mine[0][k], mine[0][k + 1]);
  };
  const decoded = new Map<string, Postings>();
  /** A key's postings over every slot: the file's and this run's. */
  const postingsOf = (key: string): Postings => {
    let counts = decoded.get(key);
    if (counts) return counts;
    const into = (counts = new Int32Array(slots));
    fromFilePairs(key, (slot, n) => (into[slot] = n));
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
  const count = (slot: number, stem: string, prefixes: readonly string[]): number => {
    let n = postingsOf(stem)[slot];
    for (const key of oddOf(stem)) {
      const word = key.slice(stem.length + 1);
      if (prefixes.some((p) => word.startsWith(p))) n += postingsOf(key)[slot];
    }
    return n;
  };
  /** Texts no file holds any more stay in the file (unread) until they are a quarter of it. */
  const fewUnused = (): boolean => {
    let usedCount = 0;
    for (let slot = 0; slot < slots; slot++) usedCount += used[slot];
    return (slots - usedCount) * 4 <= slots;
  };
  return {
    get status() {
      return fresh ? 'rebuilt' : status;
    },
    added: slots - fromFile,
    slotOf(hash) {
      const slot = opened.slots.find(hash, pass);
      return slot < 0 || nobag.has(slot) || !used[slot] ? undefined : slot;
    },
    count,
    async save() {
      if (dir === undefined) return;
      if (status === 'read' && !fresh && slots === fromFile && fewUnused()) return;
      // Written again from the file's postings: all of them read, each checked.
      if (loaded && !fresh && !(whole = loaded.all())) reindex();
      await writeStateFile(dir, WORD_INDEX_FILE, whole && !fresh && fewUnused() ? appended(loaded!, whole) : rewrite());
    },
  };

  /** The file's index with this run's texts added: each key's postings copied as they are, the new ones after them. */
  function appended(file: Loaded, postings: Uint8Array): Buffer {
    const mine = [...added.keys].sort(byCodeUnits);
    const merged: string[] = [];
    for (let i = 0, j = 0; i < keys.length || j < mine.length; ) {
      const next = j >= mine.length || (i < keys.length && keys[i] <= mine[j]) ? keys[i++] : mine[j++];
      if (merged[merged.length - 1] !== next) merged.push(next);
    }
    let at = 0;
    return writeFile(version, hashes, [...nobag], merged, section(merged.length, postings.length + 1024, (k, bytes) => {
      const key = merged[k];
      let last = -1;
      while (at < keys.length && keys[at] < key) at++;
      if (keys[at] === key) {
        const start = file.offsets[at];
        const end = file.offsets[at + 1];
        bytes.copy(postings, start, end);
        decodePostings(postings, start, end, fromFile, (slot) => (last = slot));
      }
      const pairs = added.pairsOf(key);
      if (pairs) encodePostings(pairs[0], pairs[1], pairs[2], bytes, last);
    }));
  }

  /** The index of the texts used in this run: the file's postings of them and this run's, their slots renumbered in order. */
  function rewrite(): Buffer {
    const renumber = new Int32Array(slots).fill(-1);
    const liveHashes: string[] = [];
    for (let slot = 0; slot < slots; slot++) {
      if (!used[slot]) continue;
      renumber[slot] = liveHashes.length;
      liveHashes.push(hashes[slot]);
    }
    const liveNobag = [...nobag].filter((slot) => renumber[slot] >= 0).map((slot) => renumber[slot]);
    // Only this run's texts, none dropped: the gathered postings as they are.
    if (!loaded && liveHashes.length === slots) {
      const { keys: sorted, bytes, offsets } = added.encoded();
      return writeFile(version, liveHashes, liveNobag, sorted, { bytes, offsets });
    }
    const merged = new Set([...keys, ...(fresh?.keys ?? []), ...added.keys]);
    const sorted = [...merged].sort(byCodeUnits);
    const out: number[] = [];
    const kept: string[] = [];
    const lists: Int32Array[] = [];
    for (const key of sorted) {
      out.length = 0;
      fromFilePairs(key, (slot, n) => {
        if (renumber[slot] >= 0) out.push(renumber[slot], n);
      });
      const mine = added.pairsOf(key);
      if (mine) for (let k = mine[1]; k < mine[2]; k += 2) if (renumber[mine[0][k]] >= 0) out.push(renumber[mine[0][k]], mine[0][k + 1]);
      if (out.length === 0) continue;
      kept.push(key);
      lists.push(Int32Array.from(out));
    }
    return encodeFile(version, liveHashes, liveNobag, kept, (k) => [lists[k], 0, lists[k].length]);
  }
}
