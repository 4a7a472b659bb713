/**
 * A stat-keyed cache with rows (stat-cache.ts) as bytes: a JSON header (the build's fingerprint, the
 * records kept as objects, the streams' sizes), then the rows' values in four streams: a type tag per
 * value, the numbers (whole ones of 32 bits apart, in 4 bytes), the lengths of lists and (in bytes)
 * of strings, and the strings' text. Each
 * string is decoded on its own: a slice of one decoded text would be a sliced string, which the code
 * that sorts and matches the files reads measurably slower (callgrind: 6.60 G instructions a warm
 * 20,000-note pack, against 6.25 G). Values come back as JSON.parse gives them. A row holds strings,
 * numbers, booleans, null, undefined and lists of them. The file's checksum covers everything after
 * it: a file cut short or changed is not trusted.
 */

/** CRC-32 of the bytes, with node:zlib loaded on the first checksum: a hook that keeps its caches as JSON never loads it (about 7 M instructions). */
const crc32 = (bytes: Uint8Array): number => process.getBuiltinModule('node:zlib').crc32(bytes);

const MAGIC = Buffer.from('memctx stat cache 1\n', 'latin1');
const FIXED = MAGIC.length + 8;

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

/** A stream of numbers being written: a typed array that doubles as it fills (no list of numbers copied at the end). */
class Column<T extends Uint8Array | Int32Array | Float64Array> {
  data: T;
  size = 0;

  constructor(data: T) {
    this.data = data;
  }

  push(v: number): void {
    if (this.size === this.data.length) {
      const more = new (this.data.constructor as new (n: number) => T)(this.data.length * 2);
      more.set(this.data);
      this.data = more;
    }
    this.data[this.size++] = v;
  }

  /** The values written, as bytes (a view). */
  bytes(): Buffer {
    return Buffer.from(this.data.buffer, this.data.byteOffset, this.size * this.data.BYTES_PER_ELEMENT);
  }
}

/** The streams of rows being written. */
class Streams {
  tags = new Column(new Uint8Array(1 << 12));
  numbers = new Column(new Float64Array(1 << 10));
  integers = new Column(new Int32Array(1 << 10));
  /** A list's length, or (a string's) its byte length; until text() knows the encoding, -1 - its place among the strings. */
  lengths = new Column(new Int32Array(1 << 10));
  strings: string[] = [];

  value(v: unknown, depth: number): void {
    if (v === undefined) this.tags.push(UNDEFINED);
    else if (v === null) this.tags.push(NULL);
    else if (v === false || v === true) this.tags.push(v ? TRUE : FALSE);
    else if (typeof v === 'number') {
      // -0 is kept as a number (JSON would make it 0).
      const whole = (v | 0) === v && !Object.is(v, -0);
      this.tags.push(whole ? INTEGER : NUMBER);
      (whole ? this.integers : this.numbers).push(v);
    } else if (typeof v === 'string') {
      this.tags.push(STRING);
      // Its place among the strings for now: its length in bytes once the encoding is known (text()).
      this.lengths.push(-1 - this.strings.length);
      this.strings.push(v);
    } else if (Array.isArray(v) && depth < MAX_DEPTH) {
      this.tags.push(LIST);
      this.lengths.push(v.length);
      for (const item of v) this.value(item, depth + 1);
    } else throw new Error(`stat cache: a row holds a value it cannot keep (${typeof v})`);
  }

  /** The strings' text in its encoding, each string's place in `lengths` given its length in bytes. */
  text(): { bytes: Buffer; encoding: Header['encoding'] } {
    const text = this.strings.join('');
    // String.prototype.isWellFormed (Node 20; not in the compiler's library yet).
    const encoding = !(text as unknown as { isWellFormed(): boolean }).isWellFormed() ? 'utf16le' : Buffer.byteLength(text, 'utf8') === text.length ? 'latin1' : 'utf8';
    const { strings } = this;
    const lengths = this.lengths.data;
    for (let k = 0; k < this.lengths.size; k++) {
      if (lengths[k] >= 0) continue;
      const s = strings[-1 - lengths[k]];
      lengths[k] = encoding === 'latin1' ? s.length : Buffer.byteLength(s, encoding);
    }
    return { bytes: Buffer.from(text, encoding === 'latin1' ? 'utf8' : encoding), encoding };
  }
}

/** The bytes of a cache file: its version, the records kept as objects, and the rows. */
export function encodeTable(version: string, records: Record<string, unknown>, rows: readonly (readonly unknown[])[]): Buffer {
  const s = new Streams();
  for (const row of rows) s.value(row, 0);
  // ASCII (UTF-8 of one byte a character) is written as UTF-8 and read as Latin-1, which decodes it the same.
  const { bytes: textBytes, encoding } = s.text();
  const header: Header = { version, records, rows: rows.length, tags: s.tags.size, numbers: s.numbers.size, integers: s.integers.size, lengths: s.lengths.size, textBytes: textBytes.length, encoding };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const start = Math.ceil((FIXED + json.length) / 8) * 8;
  const head = Buffer.alloc(start);
  MAGIC.copy(head);
  head.writeUInt32LE(json.length, MAGIC.length);
  json.copy(head, FIXED);
  const parts = [head, s.numbers.bytes(), s.integers.bytes(), s.lengths.bytes(), s.tags.bytes(), textBytes];
  const out = Buffer.concat(parts);
  out.writeUInt32LE(crc32(out.subarray(MAGIC.length + 8)), MAGIC.length + 4);
  return out;
}

/** A cache file as read: its records kept as objects and its rows. */
export interface Table {
  records: Record<string, unknown>;
  rows: unknown[][];
}

/** The header of a cache file's bytes, checked (magic, checksum, sizes); undefined when it cannot be trusted. */
function headerOf(bytes: Uint8Array, version: string): { header: Header; start: number } | undefined {
  if (bytes.length < FIXED || !Buffer.from(bytes.buffer, bytes.byteOffset, MAGIC.length).equals(MAGIC)) return undefined;
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const jsonBytes = view.readUInt32LE(MAGIC.length);
  if (FIXED + jsonBytes > view.length || crc32(view.subarray(FIXED)) !== view.readUInt32LE(MAGIC.length + 4)) return undefined;
  let header: Header;
  try {
    header = JSON.parse(view.toString('utf8', FIXED, FIXED + jsonBytes)) as Header;
  } catch {
    return undefined; // its length was changed: the checksum covers what follows it
  }
  if (header?.version !== version || typeof header.records !== 'object' || header.records === null || Array.isArray(header.records)) return undefined;
  const sizes = [header.rows, header.tags, header.numbers, header.integers, header.lengths, header.textBytes];
  if (!sizes.every((n) => Number.isSafeInteger(n) && n >= 0) || !['latin1', 'utf8', 'utf16le'].includes(header.encoding)) return undefined;
  const start = Math.ceil((FIXED + jsonBytes) / 8) * 8;
  if (start + header.numbers * 8 + header.integers * 4 + header.lengths * 4 + header.tags + header.textBytes !== view.length) return undefined;
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
