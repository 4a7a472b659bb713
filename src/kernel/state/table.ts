/**
 * A stat-keyed cache with rows (stat-cache.ts) as bytes: a JSON header (the build's fingerprint, the
 * records kept as objects, the streams' sizes), then the rows' values in four streams: a type tag per
 * value, the numbers (whole ones of 32 bits apart, in 4 bytes), the lengths of lists and (in bytes)
 * of strings, and the strings' text. Each
 * string is decoded on its own: a slice of one decoded text would be a sliced string, which the code
 * that sorts and matches the files reads measurably slower (callgrind: 6.60 G instructions a warm
 * 20,000-note pack, against 6.25 G). Values come back as JSON.parse gives them. A row holds strings,
 * numbers, booleans, null, undefined and lists of them. Framed as frame.ts frames a file: one cut
 * short or changed is not trusted.
 */
import { frame, unframe } from './frame.js';

const MAGIC = Buffer.from('memctx stat cache 1\n', 'latin1');

const UNDEFINED = 0;
const NULL = 1;
const FALSE = 2;
const TRUE = 3;
const NUMBER = 4;
const STRING = 5;
const LIST = 6;
/** A whole number that fits 32 bits (most of a row's numbers: sizes, counts, inodes), kept in 4 bytes. */
const INTEGER = 7;
/** Lists nested deeper than this are not written (a row's fields hold lists of scalars). */
const MAX_DEPTH = 4;

interface Header {
  version: string;
  records: Record<string, unknown>;
  rows: number;
  tags: number;
  numbers: number;
  integers: number;
  lengths: number;
  textBytes: number;
  /** The text's encoding: ASCII (decoded as Latin-1, faster than UTF-8), UTF-8, or UTF-16 when a string is not well formed (a lone surrogate). */
  encoding: 'latin1' | 'utf8' | 'utf16le';
}

/**
 * The streams of rows being written. Plain arrays, made typed at the end: a cold run (the cache is written
 * before the code that writes it is optimised) pushes onto an array several times faster than onto a typed
 * array that doubles as it fills (callgrind: 2,000 rows shaped as a pack cache's, 79 M instructions against 189 M).
 */
class Streams {
  tags: number[] = [];
  numbers: number[] = [];
  integers: number[] = [];
  /** A list's length, or (a string's) its byte length; until text() knows the encoding, -1 - its place among the strings. */
  lengths: number[] = [];
  strings: string[] = [];

  value(v: unknown, depth: number): void {
    const { tags } = this;
    if (v === undefined) tags.push(UNDEFINED);
    else if (v === null) tags.push(NULL);
    else if (v === false || v === true) tags.push(v ? TRUE : FALSE);
    else if (typeof v === 'number') {
      // -0 is kept as a number (JSON would make it 0).
      const whole = (v | 0) === v && !Object.is(v, -0);
      tags.push(whole ? INTEGER : NUMBER);
      (whole ? this.integers : this.numbers).push(v);
    } else if (typeof v === 'string') {
      tags.push(STRING);
      // Its place among the strings for now: its length in bytes once the encoding is known (text()).
      this.lengths.push(-1 - this.strings.length);
      this.strings.push(v);
    } else if (Array.isArray(v) && depth < MAX_DEPTH) {
      tags.push(LIST);
      this.lengths.push(v.length);
      for (let i = 0; i < v.length; i++) this.value(v[i], depth + 1);
    } else throw new Error(`stat cache: a row holds a value it cannot keep (${typeof v})`);
  }

  /** The strings' text in its encoding, each string's place in `lengths` given its length in bytes. */
  text(): { bytes: Buffer; encoding: Header['encoding'] } {
    const text = this.strings.join('');
    // String.prototype.isWellFormed (Node 20; not in the compiler's library yet).
    const encoding = !(text as unknown as { isWellFormed(): boolean }).isWellFormed() ? 'utf16le' : Buffer.byteLength(text, 'utf8') === text.length ? 'latin1' : 'utf8';
    const { strings, lengths } = this;
    for (let k = 0; k < lengths.length; k++) {
      if (lengths[k] >= 0) continue;
      const s = strings[-1 - lengths[k]];
      lengths[k] = encoding === 'latin1' ? s.length : Buffer.byteLength(s, encoding);
    }
    return { bytes: Buffer.from(text, encoding === 'latin1' ? 'utf8' : encoding), encoding };
  }
}

/** A typed array's bytes (a view). */
const bytesOf = (values: Uint8Array | Int32Array | Float64Array): Buffer => Buffer.from(values.buffer, values.byteOffset, values.byteLength);

/** The bytes of a cache file: its version, the records kept as objects, and the rows. */
export function encodeTable(version: string, records: Record<string, unknown>, rows: readonly (readonly unknown[])[]): Buffer {
  const s = new Streams();
  for (const row of rows) s.value(row, 0);
  // ASCII (UTF-8 of one byte a character) is written as UTF-8 and read as Latin-1, which decodes it the same.
  const { bytes: textBytes, encoding } = s.text();
  const header: Header = { version, records, rows: rows.length, tags: s.tags.length, numbers: s.numbers.length, integers: s.integers.length, lengths: s.lengths.length, textBytes: textBytes.length, encoding };
  return frame(MAGIC, header, [bytesOf(new Float64Array(s.numbers)), bytesOf(new Int32Array(s.integers)), bytesOf(new Int32Array(s.lengths)), bytesOf(new Uint8Array(s.tags)), textBytes]);
}

/** A cache file as read: its records kept as objects and its rows. */
export interface Table {
  records: Record<string, unknown>;
  rows: unknown[][];
}

/** The header of a cache file's bytes, checked (magic, checksum, sizes); undefined when it cannot be trusted. */
function headerOf(bytes: Uint8Array, version: string): { header: Header; start: number } | undefined {
  const framed = unframe(bytes, MAGIC);
  if (!framed) return undefined;
  const header = framed.head as Header;
  if (header?.version !== version || typeof header.records !== 'object' || header.records === null || Array.isArray(header.records)) return undefined;
  const sizes = [header.rows, header.tags, header.numbers, header.integers, header.lengths, header.textBytes];
  if (!sizes.every((n) => Number.isSafeInteger(n) && n >= 0) || !['latin1', 'utf8', 'utf16le'].includes(header.encoding)) return undefined;
  const { start } = framed;
  if (start + header.numbers * 8 + header.integers * 4 + header.lengths * 4 + header.tags + header.textBytes !== bytes.length) return undefined;
  return { header, start };
}

/** The records and rows of a cache file's bytes; undefined when it is not one of this build's or cannot be trusted. */
export function decodeTable(bytes: Uint8Array, version: string): Table | undefined {
  const head = headerOf(bytes, version);
  if (!head) return undefined;
  const { header } = head;
  let at = bytes.byteOffset + head.start;
  // Copies: a view needs its offset aligned to its element's size.
  const numbers = new Float64Array(bytes.buffer.slice(at, (at += header.numbers * 8)));
  const integers = new Int32Array(bytes.buffer.slice(at, (at += header.integers * 4)));
  const lengths = new Uint32Array(bytes.buffer.slice(at, (at += header.lengths * 4)));
  const tags = bytes.subarray(at - bytes.byteOffset, (at += header.tags) - bytes.byteOffset);
  const text = Buffer.from(bytes.buffer, at, header.textBytes);
  const { encoding } = header;
  let tag = 0;
  let number = 0;
  let integer = 0;
  let length = 0;
  let byte = 0;
  let bad = false;
  // Values as JSON.parse gives them (whole numbers as small integers, lists of their size), so the code that reads them sees one shape.
  const value = (depth: number): unknown => {
    switch (tags[tag++]) {
      case UNDEFINED: return undefined;
      case NULL: return null;
      case FALSE: return false;
      case TRUE: return true;
      case NUMBER: return numbers[number++];
      case INTEGER: return integers[integer++];
      case STRING: return text.toString(encoding, byte, (byte += lengths[length++]));
      case LIST: {
        const n = lengths[length++];
        if (depth >= MAX_DEPTH || n > tags.length - tag) return (bad = true), undefined;
        // Short lists (a row's fields) as literals, of their size; a row itself filled in.
        if (n === 0) return [];
        if (n === 1) return [value(depth + 1)];
        if (n === 2) return [value(depth + 1), value(depth + 1)];
        if (n === 3) return [value(depth + 1), value(depth + 1), value(depth + 1)];
        const list: unknown[] = new Array(n);
        for (let i = 0; i < n; i++) list[i] = value(depth + 1);
        return list;
      }
      default: return (bad = true), undefined;
    }
  };
  const rows: unknown[][] = [];
  for (let r = 0; r < header.rows && !bad; r++) {
    const row = tags[tag] === LIST ? value(0) : undefined;
    if (!Array.isArray(row)) return undefined;
    rows.push(row);
  }
  const used = tag === header.tags && number === header.numbers && integer === header.integers && length === header.lengths && byte === header.textBytes;
  return bad || !used ? undefined : { records: header.records, rows };
}
