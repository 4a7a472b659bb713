import { statSync } from 'node:fs';
import { decodeText } from './decode.js';
import { isoTimestamp } from './schema.js';
import { checkMemoryText, writeFileAtomic } from './write.js';
import { lineEnding, parseMemoryText, ParseFailure } from './parse.js';
import { serializeMemoryFile } from './serialize.js';
import type { FileFormat, MemoryFile } from './types.js';
import { readRegularFile } from './read-file.js';
import { MAX_FILE_BYTES } from './layout.js';

/** Non-overlapping occurrences of needle in text. */
export function countOccurrences(text: string, needle: string): number {
  if (needle === '') return 0;
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) count++;
  return count;
}

export interface RawText {
  /** The text with BOM removed and CRLF turned into LF. */
  text: string;
  /** `eol` is the majority line ending (see lineEnding); it ends every line on write. */
  format: Pick<FileFormat, 'bom' | 'eol'>;
  /** True when the file mixed CRLF and LF lines. */
  mixed: boolean;
  /** `text` as it was read: an edit (`{ ...raw, text: edited }`) keeps it, so finishEdit can compare. */
  original?: string;
}

/**
 * A file's text in the form edits work on. Throws DecodeFailure for binary or invalid UTF-8. With
 * `root` (the memory directory) the read is checked to stay inside it (see ReadOptions.inside);
 * without it, a link at the path itself is still never followed anywhere but where it leads now.
 */
export function readRawText(abs: string, root?: string): RawText {
  const decoded = decodeText(readRegularFile(abs, { maxBytes: MAX_FILE_BYTES, what: 'memory file', inside: root ?? '/' }));
  const bom = decoded.charCodeAt(0) === 0xfeff;
  const body = bom ? decoded.slice(1) : decoded;
  const { eol, mixed } = lineEnding(body);
  const text = body.replace(/\r\n/g, '\n');
  return { text, format: { bom, eol }, mixed, original: text };
}

/** The note a rewrite of a file with mixed line endings prints. */
export function mixedEndings(rel: string, raw: RawText): string {
  const eol = raw.format.eol === '\r\n' ? 'CRLF' : 'LF';
  return `${rel} mixed CRLF and LF line endings; every line now ends in ${eol}, the ending most of its lines used`;
}

/** The keys `add` requires; an edit may change their values but not lose them. */
const REQUIRED_KEYS = ['name', 'description', 'type'] as const;

/**
 * Refuse an edit that loses a required frontmatter key the file had, as `add` would refuse a file
 * without it: a `---` line inserted above the frontmatter, say, turns the whole block into body text.
 */
function keepsFrontmatter(path: string, original: string, edited: MemoryFile, stat: { mtimeMs: number; size: number }): void {
  let before: MemoryFile;
  try {
    before = parseMemoryText(path, original, stat);
  } catch {
    return; // a file that was already broken: the edit may be its repair
  }
  const has = (file: MemoryFile, key: string) => file.hasFrontmatter && file.data[key] !== undefined && file.data[key] !== null;
  const lost = REQUIRED_KEYS.filter((key) => has(before, key) && !has(edited, key));
  if (lost.length) {
    throw new ParseFailure(`the edit would leave the frontmatter without ${lost.join(', ')} (a \`---\` line put above it turns it into body text)`, 1, 'keep the frontmatter block first in the file and change its values, not its --- lines');
  }
}

/**
 * Parse edited text, set its date key (and `also`'s keys) and put it back in the original format. Throws ParseFailure
 * when the edited text is not a valid memory file.
 */
export function finishEdit(path: string, raw: RawText, stat: { mtimeMs: number; size: number }, timestamp: string, also: Record<string, unknown> = {}): string {
  const parsed = parseMemoryText(path, raw.text, stat);
  if (raw.original !== undefined && raw.original !== raw.text) keepsFrontmatter(path, raw.original, parsed, stat);
  const file = { ...parsed, format: { ...parsed.format, ...raw.format } };
  return serializeMemoryFile(file, { [file.format.dateKey]: timestamp, ...also });
}

/**
 * After a move, set `updated` on the file at its new name. A file too large or not valid as a memory
 * file (or one that setting `updated` would take over the size limit) keeps its bytes. Returns the
 * text read when its line endings were mixed. Call under the lock (mv and the memory tool's rename).
 */
export async function stampMoved(root: string, to: { abs: string; rel: string }, now: Date): Promise<RawText | undefined> {
  const stat = statSync(to.abs);
  if (!stat.isFile() || stat.size > MAX_FILE_BYTES) return undefined;
  let edit: { read: RawText; text: string } | undefined;
  try {
    const read = readRawText(to.abs, root);
    const text = finishEdit(to.rel, read, stat, isoTimestamp(now));
    checkMemoryText(to.rel, text);
    edit = { read, text };
  } catch {
    return undefined; // keep the bytes
  }
  await writeFileAtomic(to.abs, edit.text, { inside: root });
  return edit.read.mixed ? edit.read : undefined;
}
