import type { Stats } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readStateBytes, readStateFile, removeStateFile, stateDir } from './folder.js';
import { decodeTable, encodeTable } from './table.js';
import { VERSION } from '../version.js';
import { unreadableProblem, type Entry } from '../store/list.js';
import type { FileProblem, MemoryFile } from '../store/types.js';
import type { ReadDetail } from '../store/scan.js';
import { isRecord, ListedOrder } from '../values.js';
import { writeStateFile } from '../store/write.js';
const { lstatSync, readdirSync, readFileSync } = process.getBuiltinModule('node:fs');

/**
 * One stat-keyed cache of what a command needs of each memory file (its projection), kept in the
 * state folder (state.ts) and keyed by the file's size, mtime, ctime and inode (as git's index does), so a
 * warm run re-reads only files whose stat changed. A cache written by another build of memctx, a
 * corrupt one or an entry that fails the projection's check is ignored and rebuilt, never fatal.
 */
export interface Projection<T> {
  /** The cache's file name in the state folder. */
  file: string;
  /** What is kept of a parsed file (`detail.text`: its text as decoded). */
  project(file: MemoryFile, detail: ReadDetail): T;
  /** True when a cached value still has the projection's shape. */
  valid(value: unknown, path: string): value is T;
  /** Keep the values as rows of their fields, in a binary file (table.ts: read several times faster than JSON); else as objects, in JSON. */
  rows?: RowCodec<T>;
  /** A file an older build kept this cache in: removed when the cache is written. */
  replaces?: string;
}

/** A value as a row of fields and back (table.ts keeps them): the row is `[path, size, mtime, ctime, inode, ...fields]`, its fields from `at`. */
export interface RowCodec<T> {
  toRow(value: T): unknown[];
  /** The value of a row (checked by `valid` after): anything, when the row is malformed. */
  fromRow(row: readonly unknown[], at: number): unknown;
}

export interface CachedScan<T> {
  /** Each readable file's projection, in listing order. */
  values: { path: string; value: T }[];
  problems: FileProblem[];
  /** `read`, `missing` or `rebuilt` (corrupt or from another build). */
  status: 'read' | 'missing' | 'rebuilt';
  /** Write the cache when it changed. Throws on I/O errors. */
  save(): Promise<void>;
  /** Say that a value was filled in after the scan (so save writes it). */
  changed(): void;
}

/** How the parser reads a file that missed the cache (loaded by the caller only on a miss); it fills `detail`. */
export type ReadFile = (path: string, symlink: boolean, detail: ReadDetail) => MemoryFile | FileProblem;

interface CacheRecord<T> {
  key: string;
  value?: T;
  problem?: Omit<FileProblem, 'path'>;
  /** A record read from a row: the row's place, whose key's numbers Rows.keys holds (`key` is then left empty). */
  at?: number;
}

/** Where a row's fields start (after its path and the key's size, mtime, ctime and inode). */
const ROW_FIELDS = 5;

/** Files changed this recently are not cached: a second edit in the same clock tick would not show in the stat. */
const RACY_MS = 2_000;

let buildId: string | undefined;

/** The same fingerprint as the build wrote it (scripts/build-info.mjs), so a run need not hash the code. */
function builtCodeHash(): string | undefined {
  try {
    const info = JSON.parse(readFileSync(new URL('../build-info.json', import.meta.url), 'utf8')) as { codeHash?: unknown };
    return typeof info.codeHash === 'string' ? info.codeHash : undefined;
  } catch {
    return undefined; // the sources, under test
  }
}

/**
 * The build's fingerprint: memctx's version and a hash of the code that shapes cached entries (the
 * store, the caches, the text analyser and lint's rules, whose answers lint-cache.ts keeps), so a rebuilt memctx with the same version number does not trust old entries.
 */
export function cacheVersion(): string {
  buildId ??= `${VERSION}:${builtCodeHash() ?? codeHash(fileURLToPath(new URL('..', import.meta.url)))}`;
  return buildId;
}

/** A cache as read: records by path, and (a projection with rows) the rows by path, decoded when looked up. */
interface Loaded<T> {
  records: Record<string, CacheRecord<T>>;
  /** How many records: none (the usual case with rows) spares a lookup a file. */
  recordCount: number;
  rows: Rows;
  status: CachedScan<T>['status'];
}

/**
 * A cache's rows by path. They were written in listing order, so the row after the last one found is
 * tried first; the rows are put in a map only when that guess fails (a file added, gone or renamed).
 */
class Rows {
  readonly #list: readonly (readonly unknown[])[];
  /** Each row's key numbers (size, mtime, ctime, inode), four a row: kept apart, so the rows can go once decoded. */
  readonly keys: Float64Array;
  readonly #order: ListedOrder;

  constructor(list: readonly (readonly unknown[])[]) {
    this.#list = list;
    this.#order = new ListedOrder(list.length, (at) => list[at][0]);
    this.keys = new Float64Array(list.length * 4);
    list.forEach((row, i) => {
      for (let k = 0; k < 4; k++) this.keys[i * 4 + k] = typeof row[1 + k] === 'number' ? (row[1 + k] as number) : Number.NaN;
    });
  }

  get size(): number {
    return this.#list.length;
  }

  /** The place of a path's row; -1 when there is none. */
  find(path: string): number {
    return this.#order.find(path);
  }

  row(at: number): readonly unknown[] {
    return this.#list[at];
  }
}

/** The records and rows of a cache file's JSON (version checked); undefined when it is not one of this build's. */
function parseCache<T>(text: string, version: string): Omit<Loaded<T>, 'status'> | undefined {
  const data = JSON.parse(text) as { version?: unknown; records?: unknown };
  if (data.version !== version || !isRecord(data.records)) return undefined;
  // Paths end in .md, so no lookup can reach a prototype's key: the parsed object serves as is.
  return { records: data.records as Record<string, CacheRecord<T>>, recordCount: Object.keys(data.records).length, rows: new Rows([]) };
}

/** The records and rows of a cache file's bytes (table.ts); undefined when it is not one of this build's or cannot be trusted. */
function parseRows<T>(bytes: Buffer, version: string): Omit<Loaded<T>, 'status'> | undefined {
  const table = decodeTable(bytes, version);
  if (!table) return undefined;
  const records = Object.create(null) as Record<string, CacheRecord<T>>;
  let recordCount = 0;
  for (const path in table.records) {
    records[path] = table.records[path] as CacheRecord<T>;
    recordCount++;
  }
  return { records, recordCount, rows: new Rows(table.rows) };
}

function load<T>(dir: string | undefined, file: string, version: string, binary: boolean): Loaded<T> {
  const empty = { records: Object.create(null) as Record<string, CacheRecord<T>>, recordCount: 0, rows: new Rows([]) };
  const data = dir === undefined ? undefined : binary ? readStateBytes(dir, file) : readStateFile(dir, file);
  if (data === undefined) return { ...empty, status: 'missing' };
  try {
    const parsed = typeof data === 'string' ? parseCache<T>(data, version) : parseRows<T>(data, version);
    if (parsed) return { ...parsed, status: 'read' };
  } catch {
    // corrupt: rebuilt
  }
  return { ...empty, status: 'rebuilt' };
}

/** The record of a path: kept as an object, or decoded from its row (undefined when the row is malformed). */
function recordOf<T>(loaded: Loaded<T>, path: string, codec: RowCodec<T> | undefined): CacheRecord<T> | undefined {
  const record = loaded.recordCount > 0 ? loaded.records[path] : undefined;
  const at = record || !codec ? -1 : loaded.rows.find(path);
  if (at < 0) return record;
  try {
    return { key: '', at, value: codec!.fromRow(loaded.rows.row(at), ROW_FIELDS) as T };
  } catch {
    return undefined;
  }
}

/**
 * A cache file's contents: its version and records as JSON; with a codec, the records kept as objects
 * (every problem) and each value as a row, as bytes (table.ts).
 */
function cacheText<T>(version: string, records: ReadonlyMap<string, CacheRecord<T>>, codec: RowCodec<T> | undefined, keys: Float64Array): string | Buffer {
  if (!codec) return JSON.stringify({ version, records: Object.fromEntries(records) });
  const kept = Object.create(null) as Record<string, CacheRecord<T>>;
  const rows: unknown[][] = [];
  for (const [path, record] of records) {
    if (record.value === undefined) kept[path] = record;
    else rows.push([path, ...(record.at !== undefined ? keys.subarray(record.at * 4, record.at * 4 + 4) : record.key.split(':').map(Number)), ...codec.toRow(record.value)]);
  }
  return encodeTable(version, kept, rows);
}

/** A file's cache key (size, mtime, ctime, inode) and whether it changed too recently to trust. */
export function keyOf(st: Stats, now: number): { key?: string; racy: boolean } {
  // join makes one flat string; a template literal keeps a chain of pieces (~0.4 KB a file in a long scan).
  return { key: [st.size, st.mtimeMs, st.ctimeMs, st.ino].join(':'), racy: now - Math.max(st.mtimeMs, st.ctimeMs) < RACY_MS };
}

/** A file's lstat as the cache compares it (undefined for a link or a file that cannot be statted), and whether it changed too recently to trust. */
interface Known {
  st?: Stats;
  racy: boolean;
}

function statOf(root: string, entry: Entry, now: number): Known {
  if (entry.symlink) return { racy: true };
  try {
    const st = lstatSync(`${root}/${entry.path}`);
    return st.isSymbolicLink() ? { racy: true } : { st, racy: now - Math.max(st.mtimeMs, st.ctimeMs) < RACY_MS };
  } catch {
    return { racy: true };
  }
}

/** Whether a record's key is the stat's: a row's numbers compared as they are (no key string made). */
function sameKey(record: CacheRecord<unknown>, st: Stats, keys: Float64Array): boolean {
  const at = record.at;
  if (at === undefined) return record.key === keyOf(st, 0).key;
  return keys[at * 4] === st.size && keys[at * 4 + 1] === st.mtimeMs && keys[at * 4 + 2] === st.ctimeMs && keys[at * 4 + 3] === st.ino;
}

/** Whether a cached record still stands for the file: the same stat key, and a value still valid (or a problem). */
function stillValid<T>(record: CacheRecord<T> | undefined, st: Stats | undefined, projection: Projection<T>, path: string, keys: Float64Array): record is CacheRecord<T> {
  if (!record || st === undefined || !sameKey(record, st, keys)) return false;
  return record.value !== undefined ? projection.valid(record.value, path) : Boolean(record.problem);
}

/** Read and project one file; keyed by `known` (its lstat), else by the stat of the read itself. */
function readRecord<T>(read: ReadFile, entry: Entry, projection: Projection<T>, now: number, known: Known | undefined): { record: CacheRecord<T>; key?: string; racy: boolean } {
  const detail: ReadDetail = {};
  const result = read(entry.path, entry.symlink, detail);
  const st = known ? known.st : detail.stat;
  const { key, racy } = st ? keyOf(st, now) : { key: undefined, racy: true };
  const record: CacheRecord<T> = 'message' in result ? { key: key ?? '', problem: { line: result.line, message: result.message, hint: result.hint } } : { key: key ?? '', value: projection.project(result, detail) };
  return { record, key, racy: racy || (known?.racy ?? false) };
}

/**
 * Every listed memory file's projection, from the cache where its stat is unchanged; `reader` is
 * called (once) only when some file must be parsed, so a warm run never loads the parser.
 */
export async function scanWithCache<T>(
  root: string,
  entries: readonly Entry[],
  projection: Projection<T>,
  options: { now: number; reader: () => ReadFile | Promise<ReadFile> },
): Promise<CachedScan<T>> {
  const dir = stateDir(root);
  const version = cacheVersion();
  const loaded = load<T>(dir, projection.file, version, projection.rows !== undefined);
  const { keys } = loaded.rows;
  const records = new Map<string, CacheRecord<T>>();
  const values: CachedScan<T>['values'] = [];
  const problems: FileProblem[] = [];
  let dirty = loaded.status !== 'read';
  let read: ReadFile | undefined;
  let kept = 0;
  for (const entry of entries) {
    const { path } = entry;
    if (entry.error) {
      problems.push(unreadableProblem(entry));
      continue;
    }
    const cached = recordOf(loaded, path, projection.rows);
    // A file the cache does not know is keyed by the stat of the read itself: no lstat first.
    const known = cached || entry.symlink ? statOf(root, entry, options.now) : undefined;
    const hit = known !== undefined && stillValid(cached, known.st, projection, path, keys);
    const { record, key, racy } = hit ? { record: cached, key: '', racy: known.racy } : readRecord((read ??= await options.reader()), entry, projection, options.now, known);
    // Written again only when a record changes or goes: a file too new to keep (the one a flush
    // just wrote) and not kept before leaves the cache as it was.
    if (key !== undefined && !racy) {
      records.set(path, record);
      kept++;
      if (record !== cached) dirty = true;
    } else if (cached) dirty = true;
    if (record.value !== undefined) values.push({ path, value: record.value });
    else if (record.problem) problems.push({ path, ...record.problem });
  }
  if (loaded.recordCount + loaded.rows.size !== kept) dirty = true;
  return {
    values,
    problems,
    status: loaded.status,
    changed() {
      dirty = true;
    },
    async save() {
      if (!dirty || !dir) return;
      await writeStateFile(dir, projection.file, cacheText(version, records, projection.rows, keys));
      if (projection.replaces) removeStateFile(dir, projection.replaces);
    },
  };
}

/** The folders whose code shapes cached entries, below the kernel folder (each with its subfolders: lint's rules). */
const CACHED_CODE = ['store', 'state', 'text', 'lint', 'bundle'];

/**
 * A hash of the code that shapes cached entries, in the kernel folder `kernel` (sources or build).
 * @public scripts/build-info.mjs writes it into the build.
 */
export function codeHash(kernel: string): string {
  // node:crypto on use: the build hashes the code (build-info.json), a run only reads that
  const hash = process.getBuiltinModule('node:crypto').createHash('sha1');
  for (const rel of CACHED_CODE) {
    const dir = join(kernel, rel);
    const names = (readdirSync(dir, { recursive: true }) as string[]).filter((name) => /\.[jt]s$/.test(name) && !name.endsWith('.d.ts'));
    for (const name of names.sort()) hash.update(readFileSync(join(dir, name)));
  }
  return hash.digest('hex').slice(0, 12);
}
