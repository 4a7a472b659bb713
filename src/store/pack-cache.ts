import { neutralizeControls } from '../markdown/escape.js';
import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheDir } from './cache-dir.js';
import { listEntries, unreadableProblem } from './list.js';
import type { FileProblem, MemoryFile, MemoryLink } from './types.js';
import { writeFileAtomic } from './write.js';
import { readRegularFile } from './read-file.js';
import { MAX_FILE_BYTES } from './layout.js';

/**
 * What `pack` needs of each memory file, kept in .memctx/pack-cache.json and keyed by the file's
 * size, mtime, ctime and inode (as git's index does), so a warm pack re-reads only changed files.
 * The body is not kept: it is read on demand (a task to match, a file to load in full). Files
 * changed in the last RACY_MS are not cached: a second edit in the same clock tick would not show.
 */
export const PACK_CACHE_FILE = 'pack-cache.json';
const RACY_MS = 2_000;

/** A cached file: the frontmatter fields, links, markers and the hash of its text. */
export interface CachedFile extends Omit<StoredFile, 'links'> {
  links: MemoryLink[];
}

/** As stored: the fields pack reads, and each distinct link once, as `r:`, `m:` or `w:` and its target. */
interface StoredFile extends Pick<MemoryFile, 'path' | 'name' | 'description' | 'type' | 'kind' | 'updated' | 'created' | 'importance' | 'tags' | 'status' | 'severity' | 'pinned' | 'supersedes' | 'mtimeMs'> {
  links: string[];
  /** TODO/BLOCKER markers in the body. */
  markers: boolean;
  /** Content hash of the file's text as packed. */
  hash: string;
}

interface Record_ {
  key: string;
  file?: StoredFile;
  problem?: Omit<FileProblem, 'path'>;
}

/** A memory file for packing: cached fields, and the body read from disk on first use. */
export type PackEntry = CachedFile & { readonly body: string };

export interface PackScan {
  files: PackEntry[];
  problems: FileProblem[];
  /** `read`, `missing` or `rebuilt` (corrupt or from another version). */
  status: 'read' | 'missing' | 'rebuilt';
  /** Write the cache when it changed. Throws on I/O errors; callers warn. */
  save(): Promise<void>;
}

export interface PackScanOptions {
  /** The clock, in ms, for the racy-file rule. */
  now: number;
  /** memctx's version: a cache from another version is ignored. */
  version: string;
  /** The file's text as packed, its hash, and whether its body has markers. */
  describe(file: MemoryFile): { text: string; hash: string; markers: boolean };
}

/**
 * A file's text as it is packed: the file as on disk, BOM dropped, line endings as LF, ending with
 * a newline; '' when it cannot be read.
 */
export function packText(root: string, path: string): string {
  try {
    // Files reach here after readMemoryFile accepted them once (UTF-8, no NUL), so a plain decode is enough.
    const text = neutralizeControls(readRegularFile(join(root, path), { maxBytes: MAX_FILE_BYTES }).toString('utf8').replace(/^\uFEFF/, '').replace(/\r\n/g, '\n'));
    return text.endsWith('\n') ? text : `${text}\n`;
  } catch {
    return '';
  }
}

/** The text after the frontmatter block of a file's text (for task matching of cached files). */
export function bodyOf(text: string): string {
  const clean = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  if (!/^---[ \t]*\n/.test(clean)) return clean;
  const close = /\n---[ \t]*(?:\n|$)/.exec(clean);
  return close ? clean.slice(close.index + close[0].length) : clean;
}

const KINDS: Record<string, MemoryLink['kind']> = { r: 'related', m: 'markdown', w: 'wiki' };

function entry(root: string, stored: StoredFile, text?: string): PackEntry {
  let body = text === undefined ? undefined : bodyOf(text);
  const links = stored.links.map((l) => ({ kind: KINDS[l[0]], target: l.slice(2) }));
  return Object.defineProperty({ ...stored, links }, 'body', {
    enumerable: false,
    get(): string {
      if (body === undefined) {
        try {
          body = bodyOf(packText(root, stored.path));
        } catch {
          body = '';
        }
      }
      return body;
    },
  }) as PackEntry;
}

function loadRecords(path: string, version: string): { records: Record<string, Record_>; status: PackScan['status'] } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { records: Object.create(null), status: 'missing' };
  }
  try {
    const data = JSON.parse(text) as { memctx?: unknown; records?: unknown };
    if (data.memctx === version && data.records && typeof data.records === 'object' && !Array.isArray(data.records)) {
      return { records: Object.assign(Object.create(null), data.records) as Record<string, Record_>, status: 'read' };
    }
  } catch {
    // corrupt: rebuilt below
  }
  return { records: Object.create(null), status: 'rebuilt' };
}

function isStoredFile(value: unknown, path: string): value is StoredFile {
  const f = value as StoredFile | undefined;
  return !!f && f.path === path && typeof f.name === 'string' && typeof f.hash === 'string' && Array.isArray(f.links) && f.links.every((l) => typeof l === 'string' && l[0] in KINDS && l[1] === ':') && Array.isArray(f.tags) && Array.isArray(f.supersedes) && typeof f.importance === 'number' && typeof f.mtimeMs === 'number';
}

function toStored(file: MemoryFile, described: { hash: string; markers: boolean }): StoredFile {
  const { path, name, description, type, kind, updated, created, importance, tags, links, status, severity, pinned, supersedes, mtimeMs } = file;
  const compact = [...new Set(links.map((l) => `${l.kind[0]}:${l.target}`))];
  return { path, name, description, type, kind, updated, created, importance, tags, links: compact, status, severity, pinned, supersedes: supersedes ?? [], mtimeMs, ...described };
}

/** Every memory file for packing, from the cache where its stat is unchanged (the parser loads only on a miss). */
export async function scanForPack(root: string, options: PackScanOptions): Promise<PackScan> {
  const dir = cacheDir(root);
  const loaded = dir ? loadRecords(join(dir, PACK_CACHE_FILE), options.version) : { records: Object.create(null) as Record<string, Record_>, status: 'missing' as const };
  const records: Record<string, Record_> = Object.create(null);
  const files: PackEntry[] = [];
  const problems: FileProblem[] = [];
  const texts = new Map<string, string>();
  let dirty = loaded.status === 'rebuilt';
  let scan: typeof import('./scan.js') | undefined;
  for (const listed of listEntries(root)) {
    const path = listed.path;
    if (listed.error) {
      problems.push(unreadableProblem(listed));
      continue;
    }
    let key: string | undefined;
    let racy = true;
    try {
      const st = lstatSync(join(root, path));
      if (!st.isSymbolicLink()) {
        key = `${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}`;
        racy = options.now - Math.max(st.mtimeMs, st.ctimeMs) < RACY_MS;
      }
    } catch {
      key = undefined;
    }
    let record = key !== undefined ? loaded.records[path] : undefined;
    if (!record || record.key !== key || (record.file && !isStoredFile(record.file, path)) || (!record.file && !record.problem)) {
      scan ??= await import('./scan.js');
      const result = scan.readMemoryFile(root, path);
      if (scan.isProblem(result)) {
        record = { key: key ?? '', problem: { line: result.line, message: result.message, hint: result.hint } };
      } else {
        const { text, hash, markers } = options.describe(result);
        texts.set(path, text);
        record = { key: key ?? '', file: toStored(result, { hash, markers }) };
      }
      dirty = true;
    }
    if (key !== undefined && !racy) records[path] = record;
    else dirty = true;
    if (record.file) files.push(entry(root, record.file, texts.get(path)));
    else if (record.problem) problems.push({ path, ...record.problem });
  }
  if (Object.keys(loaded.records).length !== Object.keys(records).length) dirty = true;
  return {
    files,
    problems,
    status: loaded.status,
    async save() {
      if (dirty && dir) await writeFileAtomic(join(dir, PACK_CACHE_FILE), JSON.stringify({ memctx: options.version, records }));
    },
  };
}
