/**
 * BM25F ranking for a query over documents with weighted fields, using the analyser's terms.
 * Only the query's terms are looked for: one regular expression finds the words that start like a
 * query term, and each found word is stemmed and compared. That reads each text once without
 * tokenising all of it, which keeps `pack --task` over thousands of files within a read of them.
 */
import { isCjkChar, stem, stemWord, words } from './analyse.js';

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
  /** idf of each query term over these documents. */
  idf: Float64Array;
  /** Per document and term (doc * terms + term): 1 when the document holds the term. */
  matched: Uint8Array;
}

const NON_ASCII = /[^\x00-\x7f]/;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A pattern finding every word that may stem to one of the terms. */
function termPattern(terms: readonly string[]): RegExp | undefined {
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

/** termPattern and, for ASCII text, the same words found without Unicode classes. */
interface TermPatterns {
  /** For any text, lower-cased. */
  any: RegExp;
  /**
   * For ASCII text as it is, case ignored: there an ASCII letter or digit is the only word character, and no
   * term of Chinese or Japanese characters can occur (undefined when no term can). Cheaper to run than `any`.
   */
  ascii: RegExp | undefined;
}

const ASCII_TERM = /^[\x00-\x7f]+$/;

function asciiPattern(terms: readonly string[]): RegExp | undefined {
  const prefixes = [...new Set(terms.filter((t) => !isCjkChar(t) && ASCII_TERM.test(t)).map((t) => escape(prefixOf(t))))];
  return prefixes.length ? new RegExp(`(?<![a-z0-9])(?:${prefixes.join('|')})[a-z0-9]*`, 'gi') : undefined;
}

/** The term a found word counts for: its stem (a non-ASCII word cut to its first analyser word). */
function normalise(word: string): string {
  if (word.length <= 1) return word;
  return stem(NON_ASCII.test(word) ? (words(word)[0] ?? word) : word);
}

/**
 * A field's words counted ahead, so a later query needs no text: its length, how often each stem
 * occurs as a word starting with the stem's own prefix (as ` stem:count` pairs in one string, which
 * a cache reads back quickly; a stem met once is ` stem` alone, most are), and the other words (`odd`: word, stem, count) a query term's prefix
 * may still reach. Exactly what termFrequencies would count.
 */
export interface FieldBag {
  length: number;
  stems: string;
  odd: [string, string, number][];
  /**
   * Set on a bag that a word index answers (state/word-index.ts): how often `stem` counts for a query
   * whose terms' prefixes are `prefixes`, the same as from `stems` and `odd` (read then only when asked).
   */
  count?(stem: string, prefixes: readonly string[]): number;
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/** Per byte, the lower-cased ASCII letter or digit it is (the ASCII characters of `[\p{L}\p{N}\p{M}]`), else 0. */
const ASCII_LOWER = new Uint8Array(256);
for (let c = 48; c < 58; c++) ASCII_LOWER[c] = c;
for (let c = 97; c < 123; c++) ASCII_LOWER[c] = ASCII_LOWER[c - 32] = c;

/** Room for this many words at first; a table holding more is started afresh before the next text. */
const INITIAL_WORDS = 1 << 16;
const MAX_WORDS = 1 << 17;
/**
 * The fields of a word in WordTable's lookup tables, at ENTRY * slot: 1 + its id (0: an empty slot), its
 * hash and length, E_LOW and E_HIGH (an ASCII word's last eight characters lower-cased, a byte each: the
 * last four, the four before), the epoch of the text that last counted it (E_SEEN), where its count
 * is in WordTable.counts (E_AT), and where its characters start in a pool (E_POOL: for an ASCII word of
 * more than eight characters, all but the last eight). In one cache line: a word met before is found
 * and counted there.
 */
const ENTRY = 8;
const E_HASH = 1;
const E_LENGTH = 2;
const E_LOW = 3;
const E_HIGH = 4;
const E_SEEN = 5;
const E_AT = 6;
const E_POOL = 7;
/** The characters an ASCII word's entry holds itself. */
const PACKED = 8;

/** A copy of a typed array with room for `size` elements. */
function grown<T extends Int32Array | Uint8Array | Uint16Array>(a: T, size: number): T {
  const b = new (a.constructor as new (n: number) => T)(size);
  b.set(a);
  return b;
}

/** Entries (ENTRY fields a slot) in twice as many slots, each moved to its slot there. */
function rehashed(old: Int32Array): Int32Array<ArrayBuffer> {
  const entries = new Int32Array(old.length * 2);
  const mask = entries.length / ENTRY - 1;
  for (let e = 0; e < old.length; e += ENTRY) {
    if (old[e] === 0) continue;
    let slot = old[e + E_HASH] & mask;
    while (entries[slot * ENTRY] !== 0) slot = (slot + 1) & mask;
    entries.set(old.subarray(e, e + ENTRY), slot * ENTRY);
  }
  return entries;
}

/**
 * Every distinct word fieldBag has met, with its stem: open-addressing tables keyed by the word's
 * lower-cased characters, one for ASCII words (which holds most of each word itself) and one for
 * others (kept in a pool), so counting a text's words cuts out a string only for a word never met.
 * Per text, a word is stamped with the text's epoch instead of cleared, and counted in `counts`.
 */
class WordTable {
  /** The ASCII words' entries (at most half the slots used), and how many. */
  ascii = new Int32Array(INITIAL_WORDS * ENTRY);
  asciiWords = 0;
  /** The other words' entries, and how many. */
  others = new Int32Array(1 << 10);
  otherWords = 0;
  /** The characters of ASCII words longer than PACKED but their last PACKED, lower-cased. */
  bytePool = new Uint8Array(1 << 16);
  bytePoolSize = 0;
  /** The characters of the other words. */
  pool = new Uint16Array(1 << 12);
  poolSize = 0;
  words: string[] = [];
  stemOf = new Int32Array(INITIAL_WORDS);
  /** 1 when the word starts with its stem's prefix (counted under the stem), 0 for an odd word. */
  regular = new Uint8Array(INITIAL_WORDS);
  stems: string[] = [];
  /** ` stem:` for each stem. */
  stemKeys: string[] = [];
  /** ` stem` for each stem (a stem met once is written without its count). */
  stemNames: string[] = [];
  stemIds = new Map<string, number>();
  stemCounts = new Int32Array(INITIAL_WORDS);
  stemSeen = new Int32Array(INITIAL_WORDS);
  /** Each stem's first character, mixed (wordsKey's share of a word starting with it). */
  stemFirst = new Int32Array(INITIAL_WORDS);
  epoch = 0;
  /** The words of the current text, by id in first-seen order (no more than the table's words), and their counts. */
  order = new Int32Array(INITIAL_WORDS);
  counts = new Int32Array(INITIAL_WORDS);
  distinct = 0;
  /** The stems of the current text's regular words, in first-seen order. */
  stemOrder = new Int32Array(INITIAL_WORDS);
  /** The pieces of a bag's stems string. */
  parts: (string | number)[] = [];
  /** The current word's lower-cased characters. */
  chars = new Uint16Array(1 << 16);
  /** The current text as UTF-8. */
  bytes = new Uint8Array(1 << 16);

  /** Count the entry at `e` of `entries` in the current text. */
  private count(entries: Int32Array, e: number): void {
    if (entries[e + E_SEEN] !== this.epoch) {
      entries[e + E_SEEN] = this.epoch;
      entries[e + E_AT] = this.distinct;
      this.order[this.distinct] = entries[e] - 1;
      this.counts[this.distinct++] = 1;
    } else this.counts[entries[e + E_AT]]++;
  }

  /**
   * Count the ASCII word at bytes[start, start + length) of `text` (`low` and `high`: its last eight
   * characters lower-cased, as an entry holds them), added when new.
   */
  seeAscii(text: string, start: number, length: number, hash: number, low: number, high: number): void {
    const entries = this.ascii;
    const mask = entries.length / ENTRY - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const e = slot * ENTRY;
      if (entries[e] === 0) return this.addAscii(e, text, start, length, hash, low, high);
      if (entries[e + E_HASH] !== hash || entries[e + E_LENGTH] !== length || entries[e + E_LOW] !== low || entries[e + E_HIGH] !== high) continue;
      if (length > PACKED && !this.samePrefix(entries[e + E_POOL], start, length - PACKED)) continue;
      return this.count(entries, e);
    }
  }

  /** Whether bytePool from `at` holds bytes[start, start + length) lower-cased. */
  private samePrefix(at: number, start: number, length: number): boolean {
    const { bytePool, bytes } = this;
    const lower = ASCII_LOWER;
    let k = 0;
    while (k < length && bytePool[at + k] === lower[bytes[start + k]]) k++;
    return k === length;
  }

  /** Add and count the ASCII word at the empty entry `e`, as seeAscii found it. */
  private addAscii(e: number, text: string, start: number, length: number, hash: number, low: number, high: number): void {
    const entries = this.ascii;
    entries[e] = 1 + this.addWord(detached(text.slice(start, start + length).toLowerCase()), true);
    entries[e + E_HASH] = hash;
    entries[e + E_LENGTH] = length;
    entries[e + E_LOW] = low;
    entries[e + E_HIGH] = high;
    if (length > PACKED) {
      const rest = length - PACKED;
      if (this.bytePoolSize + rest > this.bytePool.length) this.bytePool = grown(this.bytePool, Math.max(this.bytePool.length * 2, this.bytePoolSize + rest));
      const { bytePool, bytes } = this;
      for (let k = 0; k < rest; k++) bytePool[this.bytePoolSize + k] = ASCII_LOWER[bytes[start + k]];
      entries[e + E_POOL] = this.bytePoolSize;
      this.bytePoolSize += rest;
    }
    this.count(entries, e);
    if (++this.asciiWords * 2 * ENTRY > entries.length) this.ascii = rehashed(entries);
  }

  /** Count the word of a text that is not ASCII in chars[0, length) (lower-cased, `hash` its hash), added when new. */
  see(length: number, hash: number, src: string, start: number): void {
    const { others: entries, pool, chars } = this;
    const mask = entries.length / ENTRY - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const e = slot * ENTRY;
      if (entries[e] === 0) return this.addOther(e, hash, detached(src.slice(start, start + length)));
      if (entries[e + E_HASH] !== hash || entries[e + E_LENGTH] !== length) continue;
      const at = entries[e + E_POOL];
      let k = 0;
      while (k < length && pool[at + k] === chars[k]) k++;
      if (k === length) return this.count(entries, e);
    }
  }

  /** Add and count a word of a text that is not ASCII at the empty entry `e`, as `see` found it. */
  private addOther(e: number, hash: number, word: string): void {
    const entries = this.others;
    const length = word.length;
    entries[e] = 1 + this.addWord(word, false);
    entries[e + E_HASH] = hash;
    entries[e + E_LENGTH] = length;
    if (this.poolSize + length > this.pool.length) this.pool = grown(this.pool, Math.max(this.pool.length * 2, this.poolSize + length));
    for (let k = 0; k < length; k++) this.pool[this.poolSize + k] = word.charCodeAt(k);
    entries[e + E_POOL] = this.poolSize;
    this.poolSize += length;
    this.count(entries, e);
    if (++this.otherWords * 2 * ENTRY > entries.length) this.others = rehashed(entries);
  }

  /** A new word's id, with its stem (`ascii` when the word is). */
  private addWord(word: string, ascii: boolean): number {
    const id = this.words.length;
    if (id + 1 >= this.stemOf.length) this.grow();
    // normalise, without the stem cache for an ASCII word (this table is its cache).
    const s = ascii ? stemWord(word) : normalise(word);
    let sid = this.stemIds.get(s);
    if (sid === undefined) {
      sid = this.stems.length;
      this.stemIds.set(s, sid);
      this.stems.push(s);
      this.stemKeys.push(` ${s}:`);
      this.stemNames.push(` ${s}`);
      this.stemFirst[sid] = mix(s.charCodeAt(0));
    }
    this.words.push(word);
    this.stemOf[id] = sid;
    this.regular[id] = s === word || word.startsWith(prefixOf(s)) ? 1 : 0;
    return id;
  }

  /** Twice the room for words and stems. */
  private grow(): void {
    const n = this.stemOf.length * 2;
    this.stemOf = grown(this.stemOf, n);
    this.regular = grown(this.regular, n);
    this.stemCounts = grown(this.stemCounts, n);
    this.stemSeen = grown(this.stemSeen, n);
    this.stemFirst = grown(this.stemFirst, n);
    this.order = grown(this.order, n);
    this.counts = grown(this.counts, n);
    this.stemOrder = grown(this.stemOrder, n);
  }
}

let table: WordTable | undefined;

/**
 * Texts taking every branch of the counting, read often enough for V8 to keep what it sees: the
 * optimising compiler then knows every branch and does not fall back to slow code in the middle of a
 * long scan. `exy` and `rea` share a slot, `aby` is an odd word, `tokens` adds to `token`'s count.
 */
function warmUp(): void {
  for (let k = 0; k < 12; k++) {
    fieldBag(`Token tokens token aby exy rea 42 new${k}`);
    fieldBag(`Café\u0301 Über — x\u{1F600}y\u{1D41A} überauthentication exy rea neü${k}`);
  }
}

/** A copy of a string that holds none of the text it was cut from (V8 keeps a longer slice as a view). */
const detached = (s: string) => ` ${s}`.slice(1);

const encoder = new TextEncoder();

/**
 * The field's bag; undefined for text with Chinese or Japanese characters (matched from the text).
 * Its words are the runs of `[\p{L}\p{N}\p{M}]` in the lower-cased text. An ASCII text (most are)
 * is read as bytes; another is lower-cased and read a character at a time, each non-ASCII character
 * classed once by a regular expression and remembered.
 */
export function fieldBag(text: string): FieldBag | undefined {
  const t = countText(text);
  return t ? bagOf(t, text.length) : undefined;
}

/** Where visitWords hands a text's distinct words. */
export interface WordSink {
  /**
   * A stem of the text's regular words and their summed count: the stem is `stems[sid]` (a list that
   * grows from text to text, and is another list after the table is started afresh).
   */
  stem(sid: number, count: number, stems: readonly string[]): void;
  /** An odd word of the text, its stem and its count. */
  odd(word: string, stem: string, count: number): void;
}

/**
 * The distinct words of a text as fieldBag counts them, without making its bag; returns the text's
 * wordsKey (the same as wordsKeyOf its bag), or null (nothing visited) where fieldBag gives no bag.
 */
export function visitWords(text: string, sink: WordSink): WordsKey | null {
  const t = countText(text);
  if (!t) return null;
  const { epoch, order, counts, stemOf, stemSeen, stemCounts, stemOrder, stemFirst } = t;
  let stemsSeen = 0;
  let words = 0;
  let firsts = 0;
  for (let k = 0; k < t.distinct; k++) {
    const id = order[k];
    const sid = stemOf[id];
    const count = counts[k];
    words += count;
    if (t.regular[id] === 0) {
      const word = t.words[id];
      firsts = (firsts + Math.imul(mix(word.charCodeAt(0)), count)) | 0;
      sink.odd(word, t.stems[sid], count);
    } else if (stemSeen[sid] !== epoch) {
      stemSeen[sid] = epoch;
      stemCounts[sid] = count;
      stemOrder[stemsSeen++] = sid;
    } else stemCounts[sid] += count;
  }
  for (let k = 0; k < stemsSeen; k++) {
    const sid = stemOrder[k];
    firsts = (firsts + Math.imul(stemFirst[sid], stemCounts[sid])) | 0;
    sink.stem(sid, stemCounts[sid], t.stems);
  }
  return [text.length, words, firsts];
}

/** The text's words counted into the shared table; undefined for text with Chinese or Japanese characters. */
function countText(text: string): WordTable | undefined {
  if (!table) {
    table = new WordTable();
    warmUp();
  } else if (table.words.length > MAX_WORDS || table.epoch === 0x7fffffff) table = new WordTable();
  const t = table;
  const n = text.length;
  // One byte more than the text: countAscii's end mark.
  if (t.bytes.length <= n) t.bytes = new Uint8Array(n * 2 + 1);
  // Each non-ASCII character takes two or more bytes: the text is ASCII when it fits byte for byte.
  const { read, written } = encoder.encodeInto(text, t.bytes);
  const ascii = read === n && written === n;
  if (!ascii && CJK.test(text)) return undefined;
  t.epoch++;
  t.distinct = 0;
  // A non-ASCII text is lower-cased as a whole: some letters lower-case by their context (and a few
  // into two characters, so its words can be longer than the text was).
  if (ascii) countAscii(t, text);
  else {
    const src = text.toLowerCase();
    if (t.chars.length < src.length) t.chars = new Uint16Array(src.length * 2);
    countWords(t, src);
  }
  // A very long text's buffers are not kept.
  if (n > 1 << 20) {
    t.bytes = new Uint8Array(1 << 16);
    t.chars = new Uint16Array(1 << 16);
  }
  return t;
}

/**
 * Count the words of an ASCII text, already in t.bytes, into the table (t.order, t.counts): each word
 * looked up in the shared table as it is read. (A per-text table in front of it, which looked up
 * only each text's distinct words, cost more than it saved: 20,000 notes counted in 1.15 s against 1.46 s.)
 */
function countAscii(t: WordTable, text: string): void {
  const n = text.length;
  // The table in a local: read from the module scope, it is checked again for every byte.
  const lower = ASCII_LOWER;
  const bytes = t.bytes;
  // A 0 after the text ends every word without a bounds test per byte.
  bytes[n] = 0;
  let i = 0;
  while (i < n) {
    let c = lower[bytes[i]];
    if (c === 0) {
      i++;
      continue;
    }
    const start = i;
    // The word's last eight characters, a byte each (as an entry holds them).
    let low = 0;
    let high = 0;
    do {
      high = (high << 8) | (low >>> 24);
      low = (low << 8) | c;
      c = lower[bytes[++i]];
    } while (c !== 0);
    let hash = Math.imul(low ^ Math.imul(high ^ (i - start), 0x9e3779b1), 0x85ebca6b);
    for (let k = start; k < i - PACKED; k++) hash = Math.imul(hash ^ lower[bytes[k]], 0x01000193);
    hash ^= hash >>> 15;
    hash = Math.imul(hash, 0xc2b2ae35);
    hash ^= hash >>> 13;
    t.seeAscii(text, start, i - start, hash, low, high);
  }
}

/** Count the words of a lower-cased text into the table (t.order, t.counts). */
function countWords(t: WordTable, src: string): void {
  const n = src.length;
  const chars = t.chars;
  let i = 0;
  while (i < n) {
    let units = wordUnits(src, i);
    if (units === 0) {
      i++;
      continue;
    }
    const start = i;
    let hash = 0x811c9dc5;
    let length = 0;
    do {
      for (const end = i + units; i < end; i++) {
        const c = src.charCodeAt(i);
        chars[length++] = c;
        hash = Math.imul(hash ^ c, 0x01000193);
      }
      units = i < n ? wordUnits(src, i) : 0;
    } while (units !== 0);
    t.see(length, hash, src, start);
  }
}

const WORD_CHAR = /^[\p{L}\p{N}\p{M}]$/u;
/** Per UTF-16 unit outside the surrogates: 0 not looked at yet, 1 a word character, 2 not. */
const UNIT_CLASS = new Uint8Array(65536);
/** Per code point above U+FFFF: whether it is a word character. */
const astral = new Map<number, boolean>();

/** How many UTF-16 units the word character at src[i] takes (1 or 2); 0 when it is no word character. */
function wordUnits(src: string, i: number): number {
  const c = src.charCodeAt(i);
  if (c < 128) return ASCII_LOWER[c] === 0 ? 0 : 1;
  if (c < 0xd800 || c > 0xdfff) {
    if (UNIT_CLASS[c] === 0) UNIT_CLASS[c] = WORD_CHAR.test(String.fromCharCode(c)) ? 1 : 2;
    return UNIT_CLASS[c] === 1 ? 1 : 0;
  }
  // A pair's code point; a lone surrogate is no word character (so is a low surrogate on its own).
  const low = src.charCodeAt(i + 1);
  if (c > 0xdbff || !(low >= 0xdc00 && low <= 0xdfff)) return 0;
  const point = (c - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
  let word = astral.get(point);
  if (word === undefined) astral.set(point, (word = WORD_CHAR.test(String.fromCodePoint(point))));
  return word ? 2 : 0;
}

/** The bag of the words counted. */
function bagOf(t: WordTable, length: number): FieldBag {
  const { epoch, order, counts, stemOf, regular, stemSeen, stemCounts, stemOrder } = t;
  let stemsSeen = 0;
  const odd: FieldBag['odd'] = [];
  for (let k = 0; k < t.distinct; k++) {
    const id = order[k];
    const sid = stemOf[id];
    const count = counts[k];
    if (regular[id] === 0) odd.push([t.words[id], t.stems[sid], count]);
    else if (stemSeen[sid] !== epoch) {
      stemSeen[sid] = epoch;
      stemCounts[sid] = count;
      stemOrder[stemsSeen++] = sid;
    } else stemCounts[sid] += count;
  }
  // Joined at once: one flat string, where adding pair by pair would leave a tree of pieces.
  const parts = t.parts;
  parts.length = 0;
  for (let k = 0; k < stemsSeen; k++) {
    const sid = stemOrder[k];
    if (stemCounts[sid] === 1) parts.push(t.stemNames[sid]);
    else parts.push(t.stemKeys[sid], stemCounts[sid]);
  }
  parts.push(' ');
  return { length, stems: parts.join(''), odd };
}

/**
 * What two texts with equal bags surely share, found without bagging an ASCII text: its length, its
 * word count and a sum over its words of a mix of each word's first character (a regular word starts
 * with its stem's first character). Texts whose keys differ cannot have equal bags, so a caller
 * looking for equal bags bags only texts whose keys meet. Null where fieldBag gives no bag.
 */
export type WordsKey = [length: number, words: number, firsts: number];

const mix = (c: number) => Math.imul(c ^ 0x5bd1e995, 0x9e3779b1) | 0;

let keyBytes = new Uint8Array(1 << 16);

/** Per byte: 1 for an ASCII letter or digit (a word's), else 0; and the mix of such a byte lower-cased (a word's first character's share). */
const WORD_BYTE = new Uint8Array(256);
const FIRST_MIX = new Int32Array(256);
for (let c = 0; c < 256; c++) {
  if (ASCII_LOWER[c] === 0) continue;
  WORD_BYTE[c] = 1;
  FIRST_MIX[c] = mix(ASCII_LOWER[c]);
}

export function wordsKey(text: string): WordsKey | null {
  const n = text.length;
  if (keyBytes.length < n) keyBytes = new Uint8Array(n * 2);
  const bytes = keyBytes;
  // As in fieldBag: the text is ASCII when it fits byte for byte.
  const { read, written } = encoder.encodeInto(text, bytes);
  if (read !== n || written !== n) {
    const bag = fieldBag(text);
    return bag ? wordsKeyOf(bag) : null;
  }
  let count = 0;
  let firsts = 0;
  let prev = 0;
  // Without branches (tables in locals): `start` is 1 at a word's first byte, else 0.
  const word = WORD_BYTE;
  const firstMix = FIRST_MIX;
  for (let i = 0; i < n; i++) {
    const b = bytes[i];
    const inWord = word[b];
    const start = inWord & ~prev;
    count += start;
    firsts = (firsts + (firstMix[b] & -start)) | 0;
    prev = inWord;
  }
  if (n > 1 << 20) keyBytes = new Uint8Array(1 << 16);
  return [n, count, firsts];
}

/** wordsKey from a text's bag. */
export function wordsKeyOf(bag: FieldBag): WordsKey {
  let count = 0;
  let firsts = 0;
  const add = (word: string, n: number) => {
    count += n;
    firsts = (firsts + Math.imul(mix(word.charCodeAt(0)), n)) | 0;
  };
  for (const pair of bag.stems.split(' ')) {
    const colon = pair.lastIndexOf(':');
    if (colon > 0) add(pair.slice(0, colon), Number(pair.slice(colon + 1)));
    else if (pair !== '') add(pair, 1);
  }
  for (const [word, , n] of bag.odd) add(word, n);
  return [bag.length, count, firsts];
}

/** True when a value has fieldBag's shape (a cache entry read back). */
export function isFieldBag(value: unknown): value is FieldBag {
  const b = value as FieldBag;
  return !!b && typeof b.length === 'number' && typeof b.stems === 'string' && Array.isArray(b.odd) && b.odd.every((o) => Array.isArray(o) && typeof o[0] === 'string' && typeof o[1] === 'string' && typeof o[2] === 'number');
}

/** How often the bag counts a stem as a regular word; `key` is ` stem` (followed in the bag by `:count`, or by a space for once). */
function stemCount(bag: FieldBag, key: string): number {
  const { stems } = bag;
  for (let at = stems.indexOf(key); at >= 0; at = stems.indexOf(key, at + 1)) {
    const next = stems.charCodeAt(at + key.length);
    if (next === SPACE_CODE) return 1;
    if (next !== COLON_CODE) continue;
    const n = parseInt(stems.slice(at + key.length + 1, stems.indexOf(' ', at + 1)), 10);
    return Number.isFinite(n) && n > 0 ? n : 0;
  }
  return 0;
}

const SPACE_CODE = 32;
const COLON_CODE = 58;

/** termFrequencies from a bag: `keys` are the `terms`' ` term`, `prefixes` the query's (prefixOf each term). */
function bagFrequencies(bag: FieldBag, terms: readonly string[], keys: readonly string[], termSlot: ReadonlyMap<string, number>, prefixes: readonly string[], into: Float64Array): void {
  into.fill(0);
  if (bag.count) {
    for (let t = 0; t < terms.length; t++) into[t] = bag.count(terms[t], prefixes);
    return;
  }
  for (let t = 0; t < keys.length; t++) into[t] += stemCount(bag, keys[t]);
  for (const [word, s, n] of bag.odd) {
    const t = termSlot.get(s);
    if (t !== undefined && prefixes.some((p) => word.startsWith(p))) into[t] += n;
  }
}

/** How often each term occurs as a word of the text. */
function termFrequencies(text: string, terms: ReadonlyMap<string, number>, patterns: TermPatterns, into: Float64Array): void {
  into.fill(0);
  if (text === '') return;
  const ascii = !NON_ASCII.test(text);
  const pattern = ascii ? patterns.ascii : patterns.any;
  if (!pattern) return;
  pattern.lastIndex = 0;
  const source = ascii ? text : text.toLowerCase();
  for (let m = pattern.exec(source); m !== null; m = pattern.exec(source)) {
    let word = ascii ? m[0].toLowerCase() : m[0];
    // A one-character match is a CJK term (every other term has two or more characters).
    if (word.length > 1) {
      if (NON_ASCII.test(word)) word = words(word)[0] ?? word;
      word = stem(word);
    }
    const t = terms.get(word);
    if (t !== undefined) into[t]++;
  }
}

/** Term frequencies per document, field and term (tf[(d * nf + f) * nt + t]) and each field's length. */
function fieldFrequencies(input: Bm25Input, patterns: TermPatterns): { tf: Float64Array; lengths: Float64Array } {
  const { terms, fields, count } = input;
  const termSlot = new Map(terms.map((t, i) => [t, i]));
  const nt = terms.length;
  const nf = fields.length;
  const tf = new Float64Array(count * nf * nt);
  const lengths = new Float64Array(count * nf);
  const buffer = new Float64Array(nt);
  const prefixes = terms.filter((t) => !isCjkChar(t)).map(prefixOf);
  const keys = terms.map((t) => ` ${t}`);
  const cjk = terms.some((t) => isCjkChar(t));
  for (let d = 0; d < count; d++) {
    for (let f = 0; f < nf; f++) {
      const bag = cjk ? undefined : input.bag?.(d, f);
      if (bag) {
        lengths[d * nf + f] = bag.length;
        bagFrequencies(bag, terms, keys, termSlot, prefixes, buffer);
      } else {
        const text = input.text(d, f);
        lengths[d * nf + f] = text.length;
        termFrequencies(text, termSlot, patterns, buffer);
      }
      tf.set(buffer, (d * nf + f) * nt);
    }
  }
  return { tf, lengths };
}

/** Each field's average length over the documents (1 when all are empty). */
function averageLengths(lengths: Float64Array, count: number, nf: number): Float64Array {
  const avg = new Float64Array(nf);
  for (let f = 0; f < nf; f++) {
    let sum = 0;
    for (let d = 0; d < count; d++) sum += lengths[d * nf + f];
    avg[f] = sum / count || 1;
  }
  return avg;
}

/** Weighted, length-normalised frequency per document and term; document frequency per term; which terms each document holds. */
function weightedFrequencies(fields: readonly FieldSpec[], count: number, nt: number, tf: Float64Array, lengths: Float64Array, matched: Uint8Array): { wtf: Float64Array; df: Float64Array } {
  const nf = fields.length;
  const avg = averageLengths(lengths, count, nf);
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
      if (sum > 0) {
        df[t]++;
        matched[d * nt + t] = 1;
      }
    }
  }
  return { wtf, df };
}

/** BM25F scores of every document for the query terms. */
export function bm25(input: Bm25Input): Bm25Result {
  const { terms, fields, count } = input;
  const k1 = input.k1 ?? 1.2;
  const scores = new Float64Array(count);
  const coverage = new Float64Array(count);
  const pattern = termPattern(terms);
  const matched = new Uint8Array(count * terms.length);
  if (!pattern || count === 0) return { scores, coverage, best: 0, idf: new Float64Array(terms.length), matched };
  const nt = terms.length;
  const { tf, lengths } = fieldFrequencies(input, { any: pattern, ascii: asciiPattern(terms) });
  const { wtf, df } = weightedFrequencies(fields, count, nt, tf, lengths, matched);
  const idf = df.map((n) => Math.log(1 + (count - n + 0.5) / (n + 0.5)));
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
  return { scores, coverage, best, idf, matched };
}
