import { neutralizeControls } from '../markdown/escape.js';
import { join } from 'node:path';
import { listEntries } from '../store/list.js';
import type { FileProblem, MemoryFile, MemoryLink } from '../store/types.js';
import { cacheVersion, scanWithCache, type Projection, type RowCodec } from '../state/stat-cache.js';
import { readRegularFile } from '../store/read-file.js';
import { MAX_FILE_BYTES } from '../store/layout.js';
import { fieldBag, wordsKey, type FieldBag, type WordsKey } from '../text/bm25.js';
import { openWordIndex, useWordIndex, type WordIndex, type WordIndexBuilder } from '../state/word-index.js';
import { stateDir } from '../state/folder.js';
import { readMemoryFile } from '../store/scan.js';
import { ListedOrder } from '../values.js';
import { textBounds, type TokenBounds } from './file-tokens.js';

/**
 * What `pack` needs of each memory file, kept in pack-cache.bin (the state folder) by the stat-keyed cache
 * (stat-cache.ts). The body is not kept: it is read on demand (a task to match, a file to load in full);
 * its words are kept apart, in the word index (state/word-index.ts), read only when a query asks.
 */
export const PACK_CACHE_FILE = 'pack-cache.bin';

/** A cached file: the frontmatter fields, links, markers and the hash of its text. */
interface CachedFile extends Omit<StoredFile, 'links' | 'bounds'> {
  links: MemoryLink[];
}

/** As stored: the fields pack reads, and (once asked) each distinct link once, as `r:`, `m:` or `w:` and its target. */
interface StoredFile extends Pick<MemoryFile, 'path' | 'name' | 'description' | 'type' | 'kind' | 'updated' | 'created' | 'importance' | 'tags' | 'status' | 'severity' | 'expires' | 'pinned' | 'supersedes' | 'mtimeMs'> {
  /**
   * Found the first time a task or --focus asks (a pack with neither never does: links only matter
   * next to files the task or focus makes active), then kept.
   */
  links?: string[];
  /** TODO/BLOCKER markers in the body. */
  markers: boolean;
  /** Content hash of the file's text as packed. */
  hash: string;
  /** What its token count is known to lie within, without counting (pack/file-tokens.ts tokenBounds): [min, max]. */
  bounds: [min: number, max: number];
  /** The body's length: only bodies of one length may be duplicates (pack/demote.ts). */
  bodyLength: number;
  /** The body's wordsKey (text/bm25.ts): which bodies may have the same words; computed when asked (a body whose length another has). */
  words?: WordsKey | null;
  /** A TextCheck's id and its answer for the file's text, once asked (PackScan.checked). */
  check?: [id: string, result: boolean];
  /** A TextMeasure's id and its answer for the file's text, once asked (PackScan.measured). */
  measure?: [id: string, value: number];
}

/** A test of a file's text whose answer the cache keeps; a new `id` (another version of the test) asks again. */
interface TextCheck {
  id: string;
  test(text: string): boolean;
}

/** A number found from a file's text whose answer the cache keeps, as TextCheck. */
interface TextMeasure {
  id: string;
  of(text: string): number;
}

/** A memory file for packing: cached fields, and the body read from disk on first use. */
type PackEntry = Omit<CachedFile, 'bounds'> & { readonly body: string; readonly bags: readonly (FieldBag | null)[]; readonly bounds: TokenBounds };

/**
 * A body's bag as the word index answers it: its counts for a query's terms come from the index; its
 * stems and odd words (wanted only to compare two bodies, pack/demote.ts) from the body, when asked.
 */
class IndexedBag implements FieldBag {
  readonly length: number;
  readonly #index: WordIndex;
  readonly #slot: number;
  readonly #file: { readonly body: string };
  #full: FieldBag | undefined;
  constructor(length: number, index: WordIndex, slot: number, file: { readonly body: string }) {
    this.length = length;
    this.#index = index;
    this.#slot = slot;
    this.#file = file;
  }

  /** A method, not a function a file: no closure for each of thousands of bags. */
  count(stem: string, prefixes: readonly string[]): number {
    return this.#index.count(this.#slot, stem, prefixes);
  }

  get stems(): string {
    return this.full().stems;
  }

  get odd(): FieldBag['odd'] {
    return this.full().odd;
  }

  private full(): FieldBag {
    this.#full ??= fieldBag(this.#file.body) ?? { length: this.length, stems: ' ', odd: [] };
    return this.#full;
  }
}

export interface PackScan {
  files: PackEntry[];
  problems: FileProblem[];
  /** A file's text as packed: kept from the scan's read, else read now (packText). */
  textOf(path: string): string;
  /** The check's answer for a file's text: from the cache when it asked this check before, else `known` (tested elsewhere on the same text) or tested now; kept. */
  checked(path: string, check: TextCheck, known?: boolean): boolean;
  /** The measure's answer for a file's text: from the cache when it asked this measure before, else measured now (the text read) and kept. */
  measured(path: string, measure: TextMeasure): number;
  /** `read`, `missing` or `rebuilt` (corrupt or from another version). */
  status: 'read' | 'missing' | 'rebuilt';
  /** Write the cache when it changed. Throws on I/O errors; callers warn. */
  save(): Promise<void>;
}

export interface PackScanOptions {
  /** The clock, in ms, for the racy-file rule. */
  now: number;
  /** The hash of a file's text as packed (`text`), whether its body has markers, and its bounds (`bounds`: found by the scan's read, when it found them). */
  describe(file: MemoryFile, text: string, bounds?: TokenBounds): { hash: string; markers: boolean; bounds: TokenBounds };
  /**
   * Keep few of the texts read (a query's scan): as each is read, its body goes into the word index, its
   * links are found and `check` is answered; only the first `keep` UTF-16 units of texts (default
   * KEPT_TEXTS) are kept, and the others are read again where they are asked for (textOf, body).
   */
  stream?: { check?: TextCheck; keep?: number };
}

/** A file's decoded text as it is packed: BOM dropped, line endings as LF, controls made visible, ending with a newline. */
function packedText(decoded: string): string {
  return neutralizeControls(cleanText(decoded));
}

/** packedText before its controls are made visible (which touches no line end, so the order is free). */
function cleanText(decoded: string): string {
  const unmarked = decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
  const text = unmarked.includes('\r') ? unmarked.replace(/\r\n/g, '\n') : unmarked;
  return text.endsWith('\n') ? text : `${text}\n`;
}

/** packedText of a decoded text, and its token bounds when one pass found both (a text without controls). */
function scannedText(decoded: string): { text: string; bounds?: TokenBounds } {
  const clean = cleanText(decoded);
  const { bounds, controls } = textBounds(clean);
  return controls ? { text: neutralizeControls(clean) } : { text: clean, bounds };
}

/** A file's text as it is packed (packedText of the file on disk); undefined when it cannot be read. */
export function packText(root: string, path: string): string | undefined {
  try {
    // Files reach here after readMemoryFile accepted them once (UTF-8, no NUL), so a plain decode is enough.
    return packedText(readRegularFile(join(root, path), { maxBytes: MAX_FILE_BYTES, inside: root }).toString('utf8'));
  } catch {
    return undefined;
  }
}

/** The text after the frontmatter block of a file's text (for task matching of cached files). */
export function bodyOf(text: string): string {
  // A packed text (the usual caller's) has neither a BOM nor a CR: nothing to clean.
  const unmarked = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const clean = unmarked.includes('\r') ? unmarked.replace(/\r\n/g, '\n') : unmarked;
  if (!/^---[ \t]*\n/.test(clean)) return clean;
  const close = /\n---[ \t]*(?:\n|$)/.exec(clean);
  return close ? clean.slice(close.index + close[0].length) : clean;
}

const KINDS: Record<string, MemoryLink['kind']> = { r: 'related', m: 'markdown', w: 'wiki' };

/** A cached file with its links resolved and its body read on first use (a class: one shape for thousands of files). */
class Entry {
  readonly path: string;
  readonly name: string;
  readonly description: string;
  readonly type: string | undefined;
  readonly kind: string | undefined;
  readonly updated: string | undefined;
  readonly created: string | undefined;
  readonly importance: number;
  readonly tags: string[];
  readonly status: string | undefined;
  readonly severity: string | undefined;
  readonly expires: string | undefined;
  readonly pinned: boolean;
  readonly supersedes: string[] | undefined;
  readonly mtimeMs: number;
  readonly markers: boolean;
  readonly hash: string;
  readonly bounds: TokenBounds;
  readonly bodyLength: number;
  readonly #root: string;
  readonly #stored: StoredFile;
  readonly #counted: () => void;
  readonly #index: () => WordIndex;
  /** The parsed file's links, when this scan parsed it. */
  readonly #found: (() => MemoryLink[]) | undefined;
  #links: MemoryLink[] | undefined;
  #body: string | undefined;
  /** The body could not be read: what is made from it is not kept in the cache. */
  #unread = false;
  #bags: (FieldBag | null)[] | undefined;
  constructor(root: string, stored: StoredFile, counted: () => void, index: () => WordIndex, body?: string, found?: () => MemoryLink[]) {
    this.path = stored.path;
    this.name = stored.name;
    this.description = stored.description;
    this.type = stored.type;
    this.kind = stored.kind;
    this.updated = stored.updated;
    this.created = stored.created;
    this.importance = stored.importance;
    this.tags = stored.tags;
    this.status = stored.status;
    this.severity = stored.severity;
    this.expires = stored.expires;
    this.pinned = stored.pinned;
    this.supersedes = stored.supersedes;
    this.mtimeMs = stored.mtimeMs;
    this.markers = stored.markers;
    this.hash = stored.hash;
    this.bounds = { min: stored.bounds[0], max: stored.bounds[1] };
    this.bodyLength = stored.bodyLength;
    this.#root = root;
    this.#counted = counted;
    this.#index = index;
    this.#stored = stored;
    this.#body = body;
    this.#found = found;
  }

  /**
   * The fields' bags: the body's from the word index (built for every file on the first ask), the short
   * fields none (matched from their text).
   */
  get bags(): readonly (FieldBag | null)[] {
    if (this.#bags) return this.#bags;
    const index = this.#index();
    const slot = index.slotOf(this.hash);
    this.#bags = [null, null, null, slot !== undefined ? new IndexedBag(this.bodyLength, index, slot, this) : null];
    return this.#bags;
  }

  /** The body to index, or undefined when it cannot be read. */
  indexText(): string | undefined {
    const body = this.body;
    return this.#unread ? undefined : body;
  }

  /** The body's wordsKey as the word index found it while indexing the body (kept in the cache). */
  indexedWords(key: WordsKey): void {
    const stored = this.#stored;
    if (stored.words !== undefined || this.#unread) return;
    stored.words = key;
    this.#counted();
  }

  /** The body's wordsKey, computed on first use (and kept in the cache, unless the body could not be read). */
  get words(): WordsKey | null {
    const stored = this.#stored;
    if (stored.words !== undefined) return stored.words;
    const words = wordsKey(this.body);
    if (!this.#unread) {
      stored.words = words;
      this.#counted();
    }
    return words;
  }

  /** The links, found on first use (and kept in the cache, unless the file could not be read and parsed). */
  get links(): MemoryLink[] {
    if (this.#links) return this.#links;
    const stored = this.#stored;
    let compact = stored.links;
    if (compact === undefined) {
      const found = this.#found ?? (() => parsedLinks(this.#root, this.path));
      const links = found();
      compact = links ? compactLinks(links) : [];
      if (links) {
        stored.links = compact;
        this.#counted();
      }
    }
    this.#links = compact.map((l) => ({ kind: KINDS[l[0]], target: l.slice(2) }));
    return this.#links;
  }

  get body(): string {
    if (this.#body === undefined) {
      const text = packText(this.#root, this.path);
      this.#unread = text === undefined;
      this.#body = bodyOf(text ?? '');
    }
    return this.#body;
  }
}



/** A file's links, read and parsed again (its cache entry has none yet); undefined when it cannot be read or parsed. */
function parsedLinks(root: string, path: string): MemoryLink[] | undefined {
  const file = readMemoryFile(root, path);
  return 'message' in file ? undefined : file.links;
}

/** Each distinct link once, as `r:`, `m:` or `w:` and its target. */
function compactLinks(links: readonly MemoryLink[]): string[] {
  return [...new Set(links.map((l) => `${l.kind[0]}:${l.target}`))];
}

/** The fields counted or checked after the scan (words key, check), when present, in their shapes. */
function hasValidExtras(f: StoredFile): boolean {
  if (typeof f.bodyLength !== 'number' || !Array.isArray(f.bounds) || typeof f.bounds[0] !== 'number' || typeof f.bounds[1] !== 'number') return false;
  if (f.words !== undefined && f.words !== null && !(Array.isArray(f.words) && f.words.length === 3 && f.words.every((n) => typeof n === 'number'))) return false;
  if (f.measure !== undefined && !(Array.isArray(f.measure) && typeof f.measure[0] === 'string' && typeof f.measure[1] === 'number')) return false;
  return f.check === undefined || (Array.isArray(f.check) && typeof f.check[0] === 'string' && typeof f.check[1] === 'boolean');
}

function isStoredFile(value: unknown, path: string): value is StoredFile {
  const f = value as StoredFile | undefined;
  if (!f || f.path !== path || typeof f.name !== 'string' || typeof f.hash !== 'string' || typeof f.importance !== 'number' || typeof f.mtimeMs !== 'number') return false;
  if (!Array.isArray(f.tags) || !Array.isArray(f.supersedes) || (f.links !== undefined && !Array.isArray(f.links))) return false;
  // Plain loops: this runs for every cached file on every warm run.
  for (const l of f.links ?? []) if (typeof l !== 'string' || !(l[0] in KINDS) || l[1] !== ':') return false;
  return hasValidExtras(f);
}

/** The fields of a StoredFile as a row keeps them, in order (its path is the row's own). */
const FIELDS = ['name', 'description', 'type', 'kind', 'updated', 'created', 'importance', 'tags', 'status', 'severity', 'expires', 'pinned', 'supersedes', 'mtimeMs', 'hash', 'markers', 'bounds', 'bodyLength', 'links', 'words', 'check', 'measure'] as const satisfies readonly (keyof StoredFile)[];

/**
 * A StoredFile as a row: a mask of the fields it lacks (bit i: FIELDS[i]), then each field (0 where it
 * lacks one), so a field that is undefined comes back undefined and one that is null comes back null.
 */
export const PACK_ROWS: RowCodec<StoredFile> = {
  toRow(value) {
    let mask = 0;
    const fields = FIELDS.map((field, i) => {
      const v = value[field];
      if (v === undefined) mask |= 1 << i;
      return v ?? (v === null ? null : 0);
    });
    return [mask, ...fields];
  },
  fromRow(row, at) {
    const mask = row[at];
    if (typeof mask !== 'number' || row.length !== at + 1 + FIELDS.length) return undefined;
    const f = (i: number): never => (mask & (1 << i) ? undefined : row[at + 1 + i]) as never;
    // One object literal: every cached file of one shape.
    return {
      path: row[0], name: f(0), description: f(1), type: f(2), kind: f(3), updated: f(4), created: f(5), importance: f(6), tags: f(7), status: f(8), severity: f(9), expires: f(10),
      pinned: f(11), supersedes: f(12), mtimeMs: f(13), hash: f(14), markers: f(15), bounds: f(16), bodyLength: f(17), links: f(18), words: f(19), check: f(20), measure: f(21),
    } satisfies Record<keyof StoredFile, unknown>;
  },
};

/** What the cache keeps of a parsed file; its links (which the parser finds only when asked) are left for Entry. */
function toStored(file: MemoryFile, described: { hash: string; markers: boolean; bounds: TokenBounds }, body: string): StoredFile {
  const { path, name, description, type, kind, updated, created, importance, tags, status, severity, expires, pinned, supersedes, mtimeMs } = file;
  const { hash, markers, bounds } = described;
  return { path, name, description, type, kind, updated, created, importance, tags, status, severity, expires, pinned, supersedes: supersedes ?? [], mtimeMs, hash, markers, bounds: [bounds.min, bounds.max], bodyLength: body.length };
}

/**
 * Texts of about this many UTF-16 units are indexed together in a scan that keeps few texts (the word
 * table stays in the processor's cache). 1 MB rather than 4: fewer texts wait in the batch, so fewer are
 * copied by the young-generation collections meanwhile (20,000 notes cold: peak 360 → 300 MB, CPU 2-5% less over 10 alternating runs).
 */
const STREAM_BATCH = 1 << 20;
/** A scan that keeps few texts keeps texts of this many UTF-16 units (a small memory's every text: none is read twice). */
const KEPT_TEXTS = 8 << 20;

/** What a scan that keeps no text takes from a text once read: its words (indexed) and the check's answer. */
function streamed(stored: StoredFile, builder: WordIndexBuilder, body: string, text: string, check: TextCheck | undefined): void {
  if (!builder.has(stored.hash)) {
    const key = builder.add(stored.hash, body);
    if (key) stored.words = key;
  }
  if (check) stored.check = [check.id, check.test(text)];
}

/** Every memory file for packing, from the cache where its stat is unchanged (the parser loads only on a miss). */
export async function scanForPack(root: string, options: PackScanOptions): Promise<PackScan> {
  const texts = new Map<string, string>();
  const bodies = new Map<string, string>();
  const found = new Map<string, () => MemoryLink[]>();
  const { stream } = options;
  // Opened on the first text read (a warm scan reads none).
  let builder: WordIndexBuilder | undefined;
  // Texts read and not yet indexed: indexed a batch at a time (the word table stays in the processor's cache), then dropped.
  let batch: [StoredFile, string, string][] = [];
  let batchLength = 0;
  let keep = stream?.keep ?? KEPT_TEXTS;
  const flush = () => {
    if (batch.length === 0 || !stream) return;
    builder ??= openWordIndex(stateDir(root), cacheVersion());
    for (const [stored, body, text] of batch) streamed(stored, builder, body, text, stream.check);
    batch = [];
    batchLength = 0;
  };
  const projection: Projection<StoredFile> = {
    file: PACK_CACHE_FILE,
    replaces: 'pack-cache.json',
    valid: isStoredFile,
    rows: PACK_ROWS,
    project(file, detail) {
      // The text as read and decoded for parsing: the file is read once.
      const { text, bounds } = detail.text === undefined ? { text: packText(root, file.path) ?? '' } : scannedText(detail.text);
      const body = bodyOf(text);
      const stored = toStored(file, options.describe(file, text, bounds), body);
      if (stream) {
        stored.links = compactLinks(file.links);
        batch.push([stored, body, text]);
        batchLength += text.length;
        if (batchLength >= STREAM_BATCH) flush();
        if (text.length > keep) return stored;
        keep -= text.length;
      }
      texts.set(file.path, text);
      bodies.set(file.path, body);
      found.set(file.path, () => file.links);
      return stored;
    },
  };
  const scan = await scanWithCache(root, listEntries(root), projection, {
    now: options.now,
    reader: async () => {
      return (path, symlink, detail) => readMemoryFile(root, path, { symlink, detail });
    },
  });
  flush();
  // Checks and measures are asked in the scan's order (pack asks every file's check in turn; a warm search asks none).
  const order = new ListedOrder(scan.values.length, (at) => scan.values[at].path);
  const storedOf = (path: string): StoredFile | undefined => scan.values[order.find(path)]?.value;
  // Files whose text could not be read now: answers made from '' are not kept in the cache.
  const unread = new Set<string>();
  const textOf = (path: string): string => {
    let text = texts.get(path);
    if (text === undefined) {
      text = packText(root, path);
      if (text === undefined) unread.add(path);
      text ??= '';
      texts.set(path, text);
    }
    return text;
  };
  /**
   * The answer a file's entry keeps in `field` under `id` (a TextCheck's or a TextMeasure's), else `answer()`,
   * kept there unless the text could not be read (an answer made from '' is not kept).
   */
  const kept = <F extends 'check' | 'measure'>(path: string, field: F, id: string, answer: () => NonNullable<StoredFile[F]>[1]): NonNullable<StoredFile[F]>[1] => {
    const stored = storedOf(path);
    const held = stored?.[field];
    if (held?.[0] === id) return held[1];
    const value = answer();
    if (stored && !unread.has(path)) {
      stored[field] = [id, value] as StoredFile[F];
      scan.changed();
    }
    return value;
  };
  // The word index, read (and what it lacks indexed) the first time a query asks for a file's words.
  let index: WordIndex | undefined;
  const words = (): WordIndex => {
    if (index) return index;
    // Each entry is its own IndexedText: no object a file to hand it over.
    return (index = builder ? builder.use(files) : useWordIndex(stateDir(root), cacheVersion(), files));
  };
  const files: Entry[] = scan.values.map(({ path, value }) => new Entry(root, value, scan.changed, words, bodies.get(path), found.get(path)));
  return {
    files,
    problems: scan.problems,
    textOf,
    checked: (path, check, known) => kept(path, 'check', check.id, () => known ?? check.test(textOf(path))),
    measured: (path, measure) => kept(path, 'measure', measure.id, () => measure.of(textOf(path))),
    status: scan.status,
    async save() {
      await scan.save();
      // Texts indexed as they were read are kept even when no query asked.
      await (builder ? words() : index)?.save();
    },
  };
}
