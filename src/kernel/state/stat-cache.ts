import type { Stats } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readStateFile, stateDir } from './folder.js';
import { VERSION } from '../version.js';
import { unreadableProblem, type Entry } from '../store/list.js';
import type { FileProblem, MemoryFile } from '../store/types.js';
import type { ReadDetail } from '../store/scan.js';
import { isRecord } from '../values.js';
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
  /** Keep the values as rows of their fields (parsed several times faster than as objects); else as objects. */
  rows?: RowCodec<T>;
}

/** A value as a row of JSON fields and back: the row is `[path, key, ...fields]`, its fields from `at`. */
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
}

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
  rows: Map<string, readonly unknown[]>;
  status: CachedScan<T>['status'];
}

/** The records and rows of a cache file's JSON (version checked); undefined when it is not one of this build's. */
function parseCache<T>(text: string, version: string): Omit<Loaded<T>, 'status'> | undefined {
  const data = JSON.parse(text) as { version?: unknown; records?: unknown; rows?: unknown };
  if (data.version !== version || !isRecord(data.records) || (data.rows !== undefined && !Array.isArray(data.rows))) return undefined;
  const rows = new Map<string, readonly unknown[]>();
  for (const row of (data.rows ?? []) as unknown[]) if (Array.isArray(row) && typeof row[0] === 'string' && typeof row[1] === 'string') rows.set(row[0], row);
  // Paths end in .md, so no lookup can reach a prototype's key: the parsed object serves as is.
  return { records: data.records as Record<string, CacheRecord<T>>, rows };
}

function load<T>(dir: string | undefined, file: string, version: string): Loaded<T> {
  const empty = { records: Object.create(null) as Record<string, CacheRecord<T>>, rows: new Map<string, readonly unknown[]>() };
  const text = dir === undefined ? undefined : readStateFile(dir, file);
  if (text === undefined) return { ...empty, status: 'missing' };
  try {
    const parsed = parseCache<T>(text, version);
    if (parsed) return { ...parsed, status: 'read' };
  } catch {
    // corrupt: rebuilt
  }
  return { ...empty, status: 'rebuilt' };
}

/** The record of a path: kept as an object, or decoded from its row (undefined when the row is malformed). */
function recordOf<T>(loaded: Loaded<T>, path: string, codec: RowCodec<T> | undefined): CacheRecord<T> | undefined {
  const record = loaded.records[path];
  const row = record || !codec ? undefined : loaded.rows.get(path);
  if (!row) return record;
  try {
    return { key: row[1] as string, value: codec!.fromRow(row, 2) as T };
  } catch {
    return undefined;
  }
}

/**
 * A cache file's text: its version, the records kept as objects (every problem, and every value
 * without a codec) and, with a codec, each value as a row.
 */
function cacheText<T>(version: string, records: Record<string, CacheRecord<T>>, codec: RowCodec<T> | undefined): string {
  if (!codec) return JSON.stringify({ version, records });
  const kept = Object.create(null) as Record<string, CacheRecord<T>>;
  const rows: unknown[][] = [];
  for (const path in records) {
    const record = records[path];
    if (record.value === undefined) kept[path] = record;
    else rows.push([path, record.key, ...codec.toRow(record.value)]);
  }
  return JSON.stringify({ version, records: kept, rows });
}

/** A file's cache key (size, mtime, ctime, inode) and whether it changed too recently to trust. */
export function keyOf(st: Stats, now: number): { key?: string; racy: boolean } {
  // join makes one flat string; a template literal keeps a chain of pieces (~0.4 KB a file in a long scan).
  return { key: [st.size, st.mtimeMs, st.ctimeMs, st.ino].join(':'), racy: now - Math.max(st.mtimeMs, st.ctimeMs) < RACY_MS };
}

function statKey(root: string, entry: Entry, now: number): { key?: string; racy: boolean } {
  if (entry.symlink) return { racy: true };
  try {
    const st = lstatSync(`${root}/${entry.path}`);
    return st.isSymbolicLink() ? { racy: true } : keyOf(st, now);
  } catch {
    return { racy: true };
  }
}

/** Whether a cached record still stands for the file: the same stat key, and a value still valid (or a problem). */
function stillValid<T>(record: CacheRecord<T> | undefined, key: string | undefined, projection: Projection<T>, path: string): record is CacheRecord<T> {
  if (!record || key === undefined || record.key !== key) return false;
  return record.value !== undefined ? projection.valid(record.value, path) : Boolean(record.problem);
}

/** Read and project one file; keyed by `known` (its lstat), else by the stat of the read itself. */
function readRecord<T>(read: ReadFile, entry: Entry, projection: Projection<T>, now: number, known: { key?: string; racy: boolean } | undefined): { record: CacheRecord<T>; key?: string; racy: boolean } {
  const detail: ReadDetail = {};
  const result = read(entry.path, entry.symlink, detail);
  const { key, racy } = known ?? (detail.stat ? keyOf(detail.stat, now) : { key: undefined, racy: true });
  const record: CacheRecord<T> = 'message' in result ? { key: key ?? '', problem: { line: result.line, message: result.message, hint: result.hint } } : { key: key ?? '', value: projection.project(result, detail) };
  return { record, key, racy };
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
  const loaded = load<T>(dir, projection.file, version);
  const records = Object.create(null) as Record<string, CacheRecord<T>>;
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
    const known = cached || entry.symlink ? statKey(root, entry, options.now) : undefined;
    const { record, key, racy } = known && stillValid(cached, known.key, projection, path) ? { record: cached, ...known } : readRecord((read ??= await options.reader()), entry, projection, options.now, known);
    // Written again only when a record changes or goes: a file too new to keep (the one a flush
    // just wrote) and not kept before leaves the cache as it was.
    if (key !== undefined && !racy) {
      records[path] = record;
      kept++;
      if (record !== cached) dirty = true;
    } else if (cached) dirty = true;
    if (record.value !== undefined) values.push({ path, value: record.value });
    else if (record.problem) problems.push({ path, ...record.problem });
  }
  if (Object.keys(loaded.records).length + loaded.rows.size !== kept) dirty = true;
  return {
    values,
    problems,
    status: loaded.status,
    changed() {
      dirty = true;
    },
    async save() {
      if (!dirty || !dir) return;
      await writeStateFile(dir, projection.file, cacheText(version, records, projection.rows));
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
