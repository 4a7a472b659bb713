import { parseFrontmatterYaml, YamlFailure } from './yaml.js';
import type { FileFormat, MemoryFile, MemoryLink } from './types.js';
import { joinPath, memoryLinks } from '../markdown/links.js';
import { fileStem } from './layout.js';
import { lineAt } from '../lines.js';
import { isRecord } from '../values.js';

/** A file that is not a valid memory file; `line` is 1-based in the file. */
export class ParseFailure extends Error {
  constructor(message: string, readonly line: number | undefined, readonly hint?: string) {
    super(message);
    this.name = 'ParseFailure';
  }
}

export interface FileStat {
  mtimeMs: number;
  size: number;
}

/**
 * The frontmatter block: where it ends (just past its closing `---` line) and where its YAML lines
 * start and end; undefined when the text has none. Only YAML is read (`---yaml` or a plain `---`):
 * any other language, JavaScript above all, is refused and never evaluated.
 */
function frontmatterBlock(text: string): { end: number; yamlStart: number; yamlEnd: number } | undefined {
  if (!text.startsWith('---')) return undefined;
  const firstEol = text.indexOf('\n');
  const firstLine = firstEol === -1 ? text : text.slice(0, firstEol);
  if (/^-{4,}/.test(firstLine)) return undefined;
  const language = firstLine.slice(3).trim();
  const shown = language.length > 40 ? `${language.slice(0, 40)}…` : language;
  if (/^(js|javascript)$/i.test(language)) {
    throw new ParseFailure(`\`---${shown}\` (JavaScript) frontmatter is never evaluated`, 1, 'rewrite the frontmatter as YAML (a plain `---` line)');
  }
  if (language !== '' && !/^(yaml|yml)$/i.test(language)) {
    throw new ParseFailure(`unsupported frontmatter language \`${shown}\``, 1, 'use YAML frontmatter (a plain `---` line)');
  }
  // The first line starting with `---` must close the block: gray-matter would close it there too.
  const close = /\n---([^\n]*)(?:\n|$)/g;
  close.lastIndex = firstEol === -1 ? text.length : firstEol;
  const match = firstEol === -1 ? null : close.exec(text);
  if (!match) {
    throw new ParseFailure('frontmatter opened on line 1 is never closed', 1, 'add a line `---` after the last frontmatter key');
  }
  if (match[1].trim() !== '') {
    const line = lineAt(text, match.index + 1);
    throw new ParseFailure('a line inside the frontmatter starts with `---`', line, 'end the frontmatter with a line holding only `---`');
  }
  return { end: match.index + match[0].length, yamlStart: firstEol + 1, yamlEnd: match.index };
}

function asString(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  return undefined;
}

function asList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(asString).filter((v): v is string => v !== undefined);
  const one = asString(value);
  if (one === undefined) return [];
  return one.includes(',') ? one.split(',').map((s) => s.trim()).filter(Boolean) : [one];
}

function metadataOf(data: Record<string, unknown>): Record<string, unknown> {
  const meta = data.metadata;
  return isRecord(meta) ? meta : {};
}

function relatedLinks(data: Record<string, unknown>): MemoryLink[] {
  return asList(data.related).flatMap((target) => {
    const resolved = joinPath('', target);
    return resolved === undefined ? [] : [{ kind: 'related' as const, target: resolved }];
  });
}

/**
 * White space runs as one space. A text that has none other than single spaces is returned as it is:
 * replace would build it again as a chain of pieces that a scan keeps for every file (~0.7 KB each).
 */
function oneSpaced(text: string): string {
  return /[^\S ]|\s\s/.test(text) ? text.replace(/\s+/g, ' ') : text;
}

function importanceOf(value: unknown): number {
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) return 5;
  return Math.min(10, Math.max(1, n));
}

/**
 * A file's line ending for writing it back: the one most of its lines use (LF on a tie), and whether
 * it mixes CRLF and LF. A rewrite ends every line with it.
 */
export function lineEnding(text: string): { eol: FileFormat['eol']; mixed: boolean } {
  let crlf = 0;
  let lf = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
    if (at > 0 && text.charCodeAt(at - 1) === 13) crlf++;
    else lf++;
  }
  return { eol: crlf > lf ? '\r\n' : '\n', mixed: crlf > 0 && lf > 0 };
}

/** Split a decoded text into frontmatter data and body, and normalise it into a MemoryFile. */
/** The text without its BOMs, with LF line endings, and the line ending the file uses. */
function normalizeText(input: string): { text: string; bom: boolean; eol: FileFormat['eol'] } {
  const bom = input.charCodeAt(0) === 0xfeff;
  // Any number of BOMs (an editor may add one to a file that has one): the text starts after them.
  let text = bom ? input.replace(/^\uFEFF+/, '') : input;
  // Most files hold no CR at all: one quick search instead of a pass per line.
  const hasCr = text.includes('\r');
  const eol = hasCr ? lineEnding(text).eol : '\n';
  if (hasCr) {
    text = text.replace(/\r\n/g, '\n');
    // A file with CR-only line endings (classic Mac) has lines too: read them as such (written back with LF).
    if (!text.includes('\n') && text.includes('\r')) text = text.replace(/\r/g, '\n');
  }
  return { text, bom, eol };
}

/** The frontmatter block of a normalised text, parsed; a ParseFailure with its line when it cannot be read. */
function readFrontmatter(text: string): { data: Record<string, unknown>; frontmatter: string; body: string; hasFrontmatter: boolean; end: number } {
  const block = frontmatterBlock(text);
  if (!block) return { data: {}, frontmatter: '', body: text, hasFrontmatter: false, end: -1 };
  // The lines between the `---` lines, without the line ending before the closing one.
  const frontmatter = text.slice(block.yamlStart, Math.max(block.yamlStart, block.yamlEnd));
  const directive = /^(?:[ \t]*(?:#[^\n]*)?\n)*(%[^\n]*)/.exec(frontmatter);
  if (directive) {
    const line = 1 + lineAt(frontmatter, directive.index + directive[0].length - directive[1].length);
    throw new ParseFailure(`YAML directives such as \`${directive[1].slice(0, 20)}\` are not supported in frontmatter`, line, 'remove the % line: frontmatter is one plain YAML document between two `---` lines');
  }
  let data: Record<string, unknown>;
  try {
    // YAML gets every line up to the closing `---` (a `|+` last value keeps its final newlines),
    // after an empty first line so that YAML line N is file line N.
    data = parseFrontmatterYaml(`\n${text.slice(block.yamlStart, block.yamlEnd + 1)}`);
  } catch (err) {
    if (err instanceof YamlFailure) throw new ParseFailure(err.message, err.line, err.hint);
    throw new ParseFailure(`unreadable frontmatter: ${(err as Error).message}`, 1, 'fix the frontmatter');
  }
  return { data, frontmatter, body: text.slice(block.end), hasFrontmatter: true, end: block.end };
}

export function parseMemoryText(path: string, input: string, stat: FileStat): MemoryFile {
  const { text, bom, eol } = normalizeText(input);
  const { data, frontmatter, body, hasFrontmatter, end } = readFrontmatter(text);
  const bodyLine = hasFrontmatter ? lineAt(text, end) : 1;
  const meta = metadataOf(data);
  const dateKey = 'modified' in data && !('updated' in data) ? 'modified' : 'updated';

  const file = {
    path,
    data,
    frontmatter,
    hasFrontmatter,
    bodyLine,
    body,
    name: asString(data.name) ?? fileStem(path),
    description: oneSpaced(asString(data.description) ?? ''),
    type: (asString(data.type) ?? asString(meta.type))?.toLowerCase(),
    kind: (asString(data.kind) ?? asString(meta.kind))?.toLowerCase(),
    updated: asString(data[dateKey]),
    created: asString(data.created),
    importance: importanceOf(data.importance ?? meta.importance),
    tags: asList(data.tags ?? meta.tags),
  };
  // The properties after `links` are added after it, so that every parsed file has one shape and
  // key order (an accessor defined per object, or over an existing property, would make each file
  // a dictionary: about 1.5 KB more per file).
  const rest = withLazyLinks(file, () => [...relatedLinks(data), ...memoryLinks(path, body, bodyLine)]);
  rest.status = asString(data.status)?.toLowerCase();
  rest.severity = asString(data.severity)?.toLowerCase();
  rest.expires = asString(data.expires);
  rest.pinned = data.pinned === true;
  rest.supersedes = asList(data.supersedes).map((p) => p.trim()).filter(Boolean);
  rest.mtimeMs = stat.mtimeMs;
  rest.size = stat.size;
  rest.format = { bom, eol, dateKey };
  return rest as MemoryFile;
}

const LINKS = Symbol('links');

type Lazy = { [LINKS]: MemoryLink[] | (() => MemoryLink[]) };

/** One accessor pair shared by every parsed file (its state in a hidden property), so files keep one fast shape. */
const LAZY_LINKS: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: Lazy): MemoryLink[] {
    const links = this[LINKS];
    return typeof links === 'function' ? (this[LINKS] = links()) : links;
  },
  set(this: Lazy, value: MemoryLink[]) {
    this[LINKS] = value;
  },
};

/**
 * Links are found on first use: listing and indexing never need them, and scanning bodies for them
 * is a fifth of the parse. The property stays enumerable, so the value is still plain data; the
 * finder sits in a non-enumerable symbol property that spreads and JSON leave out.
 */
function withLazyLinks<T extends object>(file: T, find: () => MemoryLink[]): T & Partial<MemoryFile> {
  Object.defineProperty(file, LINKS, { value: find, writable: true });
  Object.defineProperty(file, 'links', LAZY_LINKS);
  return file;
}
