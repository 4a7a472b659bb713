import { MemctxError } from '../errors.js';
import { linkedPaths } from '../markdown/links.js';
import type { IndexEntry } from '../store/types.js';
import { BEGIN_MARKER, END_MARKER } from './groups.js';
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, renderIndexBlock, type IndexOptions } from './render.js';
import { lineAt } from '../lines.js';

/** MEMORY.md's markers are broken: the file cannot be updated without guessing. */
export class IndexMarkerError extends MemctxError {
  declare readonly line: number;
  constructor(message: string, line: number) {
    super(message, { line, hint: 'leave exactly one begin and one end marker, or remove both to regenerate the block' });
    this.name = 'IndexMarkerError';
  }
}

/** The hand-written text around the generated block. */
export interface IndexParts {
  before: string;
  after: string;
  /** The block as found (markers included), or undefined when the file has none. */
  block?: string;
  eol: '\n' | '\r\n';
}

export const NEW_INDEX_HEADER = '# Memory\n\n';

/** Offsets of the lines that are exactly this marker (trailing blanks allowed): markers are whole lines, as memctx writes them. */
function markerAt(text: string, marker: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(marker); at !== -1; at = text.indexOf(marker, at + 1)) {
    if (at !== 0 && text[at - 1] !== '\n') continue;
    let end = at + marker.length;
    while (text[end] === ' ' || text[end] === '\t' || text[end] === '\r') end++;
    if (end === text.length || text[end] === '\n') found.push(at);
  }
  return found;
}

/** Where the (first) begin-marker line starts, or -1. */
export function indexBlockStart(text: string): number {
  return markerAt(text, BEGIN_MARKER)[0] ?? -1;
}

/** Split an existing MEMORY.md into hand-written text and the generated block. */
export function splitIndex(existing: string | undefined): IndexParts {
  if (existing === undefined) return { before: NEW_INDEX_HEADER, after: '\n', eol: '\n' };
  const eol = existing.includes('\r\n') ? '\r\n' : '\n';
  const begins = markerAt(existing, BEGIN_MARKER);
  const ends = markerAt(existing, END_MARKER);
  if (begins.length === 0 && ends.length === 0) {
    const before = existing === '' ? '' : existing.endsWith('\n') ? `${existing}${eol}` : `${existing}${eol}${eol}`;
    return { before, after: eol, eol };
  }
  if (begins.length !== 1 || ends.length !== 1) {
    const extra = begins.length === 1 ? ends[ends.length > 1 ? 1 : 0] ?? begins[0] : begins[begins.length > 1 ? 1 : 0] ?? ends[0];
    throw new IndexMarkerError(`MEMORY.md must hold exactly one ${BEGIN_MARKER} and one ${END_MARKER} (found ${begins.length} and ${ends.length})`, lineAt(existing, extra));
  }
  if (ends[0] < begins[0]) {
    throw new IndexMarkerError(`${END_MARKER} comes before ${BEGIN_MARKER}`, lineAt(existing, ends[0]));
  }
  const endAt = ends[0] + END_MARKER.length;
  return { before: existing.slice(0, begins[0]), block: existing.slice(begins[0], endAt), after: existing.slice(endAt), eol };
}

const encoder = new TextEncoder();

const INDEX_LINE = /^[ \t]*[-*+][ \t]+\[/;

/**
 * The memory files the hand-written text lists as index lines, `- [title](file.md) — …` (the first
 * link of a list item), as Claude Code writes its own MEMORY.md.
 */
export function listedByHand(text: string): Set<string> {
  const listed = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    if (!INDEX_LINE.test(line)) continue;
    const [first] = linkedPaths(line);
    if (first !== undefined) listed.add(first);
  }
  return listed;
}

/**
 * The full MEMORY.md text for these files, keeping every byte outside the markers. A file the
 * hand-written text already lists as an index line is not listed again in the generated block.
 */
export function renderIndexFile(existing: string | undefined, files: IndexEntry[], options: IndexOptions = {}): string {
  const parts = splitIndex(existing);
  const outside = parts.before + parts.after;
  const all = files;
  if (!options.listAll) {
    const listed = listedByHand(outside);
    if (listed.size > 0) files = files.filter((file) => !listed.has(file.path));
  }
  // The block's B lines add B - 1 line endings; its last line is ended by the text after it (or is
  // the file's unterminated last line). So the file has (newlines outside) + B - 1 lines, plus one
  // when it does not end with a newline; the block's own sizing counts B endings, hence the + 1s.
  const outsideNewlines = outside.split('\n').length - 1;
  const unterminated = parts.after.endsWith('\n') ? 0 : 1;
  const room = {
    lines: (options.maxLines ?? DEFAULT_MAX_LINES) - outsideNewlines + 1 - unterminated,
    bytes: (options.maxBytes ?? DEFAULT_MAX_BYTES) - encoder.encode(outside).length + parts.eol.length,
  };
  const block = renderIndexBlock(files, room, options, parts.eol, all.length === 0).join(parts.eol);
  return parts.before + block + parts.after;
}

/** The block's lines that differ between what is on disk and what would be generated. */
export function diffIndex(existing: string | undefined, expected: string): { missing: string[]; unexpected: string[] } {
  const have = blockLines(existing);
  const want = blockLines(expected);
  const haveSet = new Set(have);
  const wantSet = new Set(want);
  return {
    missing: want.filter((line) => !haveSet.has(line)),
    unexpected: have.filter((line) => !wantSet.has(line)),
  };
}

function blockLines(text: string | undefined): string[] {
  if (text === undefined) return [];
  try {
    const block = splitIndex(text).block;
    return block ? block.split(/\r?\n/).filter((line) => line.startsWith('- ') || line.startsWith('## ')) : [];
  } catch {
    return [];
  }
}
