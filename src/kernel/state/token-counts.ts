/**
 * Token counts by encoding and content hash, kept in token-counts.bin in the state folder: framed as
 * frame.ts frames a file (its head: the build, the encodings in the order their ids follow, the number
 * of records), then fixed-width records sorted by key. A run looks up only the counts it asks for, by
 * binary search on the file's bytes (no entry is decoded up front), and a save merges the new counts
 * into the old records by copying runs of bytes. A missing, corrupt or other build's file is rebuilt;
 * a link at its name is neither followed nor written through. token-counts.json (an older build's) is
 * removed when the file is written.
 */
import { ENCODINGS, type EncodingName } from '../tokens/encodings.js';
import type { CountStore } from '../tokens/cache.js';
import { frame, unframe } from './frame.js';
import { readStateBytes, removeStateFile, stateDir } from './folder.js';
import { writeStateFile } from '../store/write.js';

export const TOKEN_COUNTS_FILE = 'token-counts.bin';
/** Where an older build kept the counts, as JSON. */
const OLD_FILE = 'token-counts.json';
const MAGIC = Buffer.from('memctx token counts 1\n', 'latin1');
/** Past this many entries (or COUNTS_PER_FILE for each memory file, when more), a save keeps only the counts used by the current run. */
const MAX_CACHE_ENTRIES = 200_000;
/** Room for a large memory's counts (a file whole, its head, some passages) so that a run does not drop another command's. */
const COUNTS_PER_FILE = 8;

/** A record's key: the encoding's place in ENCODINGS (1 byte) and the text's SHA-1 (20 bytes); then its count (4 bytes, little-endian). */
const HASH_BYTES = 20;
const KEY_BYTES = 1 + HASH_BYTES;
const RECORD = KEY_BYTES + 4;
/** A SHA-1 in base64url, as contentHash gives it. */
const HASH_CHARS = 27;
/** A count the file can hold: a whole number of 32 bits at most (the JSON kept whole non-negative numbers). */
const storable = (count: number) => Number.isSafeInteger(count) && count >= 0 && count <= 2 ** 32 - 1;

interface Head {
  version: string;
  encodings: readonly string[];
  records: number;
}

/** The first of the `n` sorted records at or after `lo` whose key is not below `key`'s (at `keyAt` in its buffer). */
function lowerBound(records: Uint8Array, n: number, key: Uint8Array, keyAt: number, lo: number): number {
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareKeys(records, mid * RECORD, key, keyAt) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function compareKeys(a: Uint8Array, aAt: number, b: Uint8Array, bAt: number): number {
  for (let k = 0; k < KEY_BYTES; k++) {
    const d = a[aAt + k] - b[bAt + k];
    if (d !== 0) return d;
  }
  return 0;
}

/** Write the key of (encoding, hash) into `out` at `at`; false when the hash is not a SHA-1 in base64url (kept in memory only). */
function writeKey(out: Buffer, at: number, encoding: EncodingName, hash: string): boolean {
  out[at] = ENCODINGS.indexOf(encoding);
  return hash.length === HASH_CHARS && out.write(hash, at + 1, HASH_BYTES, 'base64url') === HASH_BYTES;
}

/** Sorted records merged with sorted records none of whose keys they hold, runs of the first copied whole. */
function mergeRecords(old: Buffer, added: Buffer): Buffer {
  const out = Buffer.allocUnsafe(old.length + added.length);
  const n = old.length / RECORD;
  let from = 0;
  let at = 0;
  for (let j = 0; j < added.length; j += RECORD) {
    const place = lowerBound(old, n, added, j, from);
    at += old.copy(out, at, from * RECORD, place * RECORD);
    at += added.copy(out, at, j, j + RECORD);
    from = place;
  }
  old.copy(out, at, from * RECORD);
  return out;
}

/** The token counts of a memory directory: the file's records as read, and the counts set in this run. */
export class CountCache implements CountStore {
  /** True when counts were set since the cache was read (or the file must be rebuilt). */
  dirty = false;
  readonly #records: Buffer;
  readonly #stored: number;
  /** 1 for each record read or set in this run: the ones kept when the cache is pruned. */
  readonly #used: Uint8Array;
  /** Counts set in this run that the records do not hold, by encoding id and hash. */
  readonly #added = new Map<string, number>();
  readonly #key = Buffer.alloc(KEY_BYTES);

  /** `records`: sorted, RECORD bytes each (the file's body; changed in place when a count it holds is set). */
  constructor(records: Buffer = Buffer.alloc(0)) {
    this.#records = records;
    this.#stored = records.length / RECORD;
    this.#used = new Uint8Array(this.#stored);
  }

  /** How many counts it holds. */
  get size(): number {
    return this.#stored + this.#added.size;
  }

  get(encoding: EncodingName, hash: string): number | undefined {
    const k = this.#find(encoding, hash);
    if (k >= 0) {
      this.#used[k] = 1;
      return this.#records.readUInt32LE(k * RECORD + KEY_BYTES);
    }
    return this.#added.size === 0 ? undefined : this.#added.get(ENCODINGS.indexOf(encoding) + hash);
  }

  has(encoding: EncodingName, hash: string): boolean {
    return this.#find(encoding, hash) >= 0 || this.#added.has(ENCODINGS.indexOf(encoding) + hash);
  }

  set(encoding: EncodingName, hash: string, count: number): void {
    const k = this.#find(encoding, hash);
    if (k >= 0 && storable(count)) {
      this.#records.writeUInt32LE(count, k * RECORD + KEY_BYTES);
      this.#used[k] = 1;
    } else this.#added.set(ENCODINGS.indexOf(encoding) + hash, count);
    this.dirty = true;
  }

  /** The records to save, sorted: the file's and those set in this run; past `max`, only the ones read or set in this run. */
  saved(max: number): Buffer {
    const added = this.#addedRecords();
    const old = this.#stored + added.length / RECORD > max ? this.#usedRecords() : this.#records;
    return mergeRecords(old, added);
  }

  /** The place of (encoding, hash) among the records, or -1. */
  #find(encoding: EncodingName, hash: string): number {
    if (this.#stored === 0 || !writeKey(this.#key, 0, encoding, hash)) return -1;
    const k = lowerBound(this.#records, this.#stored, this.#key, 0, 0);
    return k < this.#stored && compareKeys(this.#records, k * RECORD, this.#key, 0) === 0 ? k : -1;
  }

  /** The counts set in this run as sorted records (those that cannot be kept: a hash of another form, a count past 32 bits, left out). */
  #addedRecords(): Buffer {
    const key = Buffer.alloc(KEY_BYTES);
    const keyed: [key: string, count: number][] = [];
    for (const [name, count] of this.#added) {
      const encoding = ENCODINGS[Number(name[0])];
      if (encoding && writeKey(key, 0, encoding, name.slice(1)) && storable(count)) keyed.push([key.toString('latin1'), count]);
    }
    // Latin-1 strings compare by their code units as the keys' bytes compare.
    keyed.sort((a, b) => (a[0] < b[0] ? -1 : 1));
    const out = Buffer.alloc(keyed.length * RECORD);
    keyed.forEach(([k, count], i) => {
      out.write(k, i * RECORD, 'latin1');
      out.writeUInt32LE(count, i * RECORD + KEY_BYTES);
    });
    return out;
  }

  /** The records read or set in this run. */
  #usedRecords(): Buffer {
    const kept: Buffer[] = [];
    for (let k = 0; k < this.#stored; k++) if (this.#used[k]) kept.push(this.#records.subarray(k * RECORD, (k + 1) * RECORD));
    return Buffer.concat(kept);
  }
}

export interface LoadedCountCache {
  cache: CountCache;
  /** `missing` (no file yet), `read`, or `rebuilt` (unreadable, corrupt or from another memctx version). */
  status: 'missing' | 'read' | 'rebuilt';
}

/** The records of a file's bytes; undefined when it is not this build's (`version`) or cannot be trusted. */
function recordsOf(bytes: Buffer, version: string): Buffer | undefined {
  const framed = unframe(bytes, MAGIC);
  const head = framed?.head as Head | undefined;
  if (!framed || head?.version !== version || JSON.stringify(head.encodings) !== JSON.stringify(ENCODINGS) || !Number.isSafeInteger(head.records)) return undefined;
  return framed.start + head.records * RECORD === bytes.length ? bytes.subarray(framed.start) : undefined;
}

/**
 * The count cache of a memory directory, from its state folder; a missing or corrupt file, or one
 * written by another memctx version (`version`), gives an empty cache.
 */
export function readCountCache(root: string, version: string): LoadedCountCache {
  const dir = stateDir(root);
  const bytes = dir === undefined ? undefined : readStateBytes(dir, TOKEN_COUNTS_FILE);
  if (bytes === undefined) return { cache: new CountCache(), status: 'missing' };
  const records = recordsOf(bytes, version);
  if (records) return { cache: new CountCache(records), status: 'read' };
  const cache = new CountCache();
  cache.dirty = true; // rewrite the bad file even if nothing new is counted
  return { cache, status: 'rebuilt' };
}

/** Save the cache when it changed (atomic write), sized for a memory of `files` files. Throws on I/O errors; callers treat that as a warning. */
export async function writeCountCache(root: string, cache: CountCache, version: string, files = 0): Promise<boolean> {
  if (!cache.dirty) return false;
  const dir = stateDir(root);
  if (!dir) return false;
  const records = cache.saved(Math.max(MAX_CACHE_ENTRIES, COUNTS_PER_FILE * files));
  const head: Head = { version, encodings: ENCODINGS, records: records.length / RECORD };
  await writeStateFile(dir, TOKEN_COUNTS_FILE, frame(MAGIC, head, [records]));
  removeStateFile(dir, OLD_FILE);
  cache.dirty = false;
  return true;
}
