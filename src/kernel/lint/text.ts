import { fencedLines } from '../markdown/links.js';
import type { MemoryFile } from '../store/types.js';

/**
 * The file as text with its line numbers as on disk: the frontmatter block from line 1, the body
 * from `bodyLine` (CRLF and BOM already removed by the parser).
 */
export function fileText(file: MemoryFile): string {
  if (!file.hasFrontmatter) return file.body;
  const fm = file.frontmatter;
  return `---\n${fm === '' ? '' : `${fm}\n`}---\n${'\n'.repeat(headShape(file).gap)}${file.body}`;
}

/**
 * What fileText puts before the body, measured without building it: the frontmatter block (`---`, the
 * frontmatter and a line break when there is one, `---`: 8 characters and its line breaks) and the
 * empty lines after it.
 */
function headShape(file: MemoryFile): { chars: number; gap: number } {
  if (!file.hasFrontmatter) return { chars: 0, gap: 0 };
  const fm = file.frontmatter;
  let lines = fm === '' ? 2 : 3;
  for (let at = fm.indexOf('\n'); at !== -1; at = fm.indexOf('\n', at + 1)) lines++;
  return { chars: 8 + (fm === '' ? 0 : fm.length + 1), gap: Math.max(0, file.bodyLine - 1 - lines) };
}

/**
 * True when fileText(file) is at most `limit` UTF-8 bytes, found without building the text. A BPE token
 * covers at least one byte, so such a file needs no count; characters alone bound nothing (`ꙮ` is one
 * character and three o200k tokens).
 */
export function textWithin(file: MemoryFile, limit: number): boolean {
  const { chars, gap } = headShape(file);
  // UTF-8 takes at least one byte per UTF-16 unit, so more characters than the limit means more bytes.
  if (chars + gap + file.body.length > limit) return false;
  const fm = file.frontmatter;
  const headBytes = file.hasFrontmatter ? 8 + (fm === '' ? 0 : Buffer.byteLength(fm) + 1) : 0;
  return headBytes + gap + Buffer.byteLength(file.body) <= limit;
}

/** 1-based line of a top-level frontmatter key, or the frontmatter's first line (1). */
export function keyLine(file: MemoryFile, key: string): number {
  if (!file.hasFrontmatter) return 1;
  const lines = file.frontmatter.split('\n');
  const at = lines.findIndex((line) => line.startsWith(`${key}:`) || line.startsWith(`"${key}":`) || line.startsWith(`'${key}':`));
  return at === -1 ? 1 : at + 2;
}

export interface BodyLine {
  /** 1-based line in the file. */
  line: number;
  text: string;
  /** Inside a fenced code block (the fence lines themselves count as inside). */
  fenced: boolean;
}

/** The body's lines with their file line numbers and whether each is inside fenced code. */
export function bodyLines(file: MemoryFile): BodyLine[] {
  const lines = file.body.split('\n');
  const fenced = fencedLines(lines);
  return lines.map((text, i) => ({ line: file.bodyLine + i, text, fenced: fenced[i] }));
}

/** Show the start of a sensitive string and hide the rest: `ghp_…(40 characters)`. */
export function maskSecret(secret: string): string {
  const flat = secret.replace(/\s+/g, ' ').trim();
  const shown = flat.length >= 16 ? flat.slice(0, 4) : '';
  return `${shown}${'*'.repeat(Math.min(8, Math.max(4, flat.length - shown.length)))} (${flat.length} characters)`;
}

/** Short quote of a text for a message. */
export function quote(text: string, max = 60): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
