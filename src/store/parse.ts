import matter from 'gray-matter';
import { parseFrontmatterYaml, YamlFailure } from './yaml.js';
import type { FileFormat, MemoryFile, MemoryLink } from './types.js';
import { joinPath, memoryLinks } from '../markdown/links.js';

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

const refuse = (language: string) => () => {
  throw new ParseFailure(`\`---${language}\` frontmatter is never evaluated`, 1, 'rewrite the frontmatter as YAML (a plain `---` line)');
};

/** A fresh options object on every call: gray-matter caches by content when called without one. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- gray-matter types engines too narrowly
function matterOptions(): any {
  return {
    language: 'yaml',
    engines: {
      yaml: (src: string) => parseFrontmatterYaml(src),
      javascript: refuse('js'),
      js: refuse('js'),
      json: refuse('json'),
      coffee: refuse('coffee'),
      coffeescript: refuse('coffee'),
    } as never,
  };
}

/**
 * Where the frontmatter block ends (the offset just past its closing `---` line), or -1 when the
 * text has none. Checked before gray-matter sees the text, which then gets only the block: it looks
 * its whole input up in a content cache, which costs as much as the parse for long bodies.
 */
function frontmatterEnd(text: string): number {
  if (!text.startsWith('---')) return -1;
  const firstEol = text.indexOf('\n');
  const firstLine = firstEol === -1 ? text : text.slice(0, firstEol);
  if (/^-{4,}/.test(firstLine)) return -1;
  const language = firstLine.slice(3).trim();
  if (/^(js|javascript)$/i.test(language)) {
    throw new ParseFailure(`\`---${language}\` (JavaScript) frontmatter is never evaluated`, 1, 'rewrite the frontmatter as YAML (a plain `---` line)');
  }
  if (language !== '' && !/^(yaml|yml)$/i.test(language)) {
    throw new ParseFailure(`unsupported frontmatter language \`${language}\``, 1, 'use YAML frontmatter (a plain `---` line)');
  }
  // The first line starting with `---` must close the block: gray-matter would close it there too.
  const close = /\n---([^\n]*)(?:\n|$)/g;
  close.lastIndex = firstEol === -1 ? text.length : firstEol;
  const match = firstEol === -1 ? null : close.exec(text);
  if (!match) {
    throw new ParseFailure('frontmatter opened on line 1 is never closed', 1, 'add a line `---` after the last frontmatter key');
  }
  if (match[1].trim() !== '') {
    const line = 1 + newlinesBetween(text, 0, match.index + 1);
    throw new ParseFailure('a line inside the frontmatter starts with `---`', line, 'end the frontmatter with a line holding only `---`');
  }
  return match.index + match[0].length;
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
  return meta && typeof meta === 'object' && !Array.isArray(meta) ? (meta as Record<string, unknown>) : {};
}

export function fileStem(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  return base.replace(/\.md$/i, '');
}

function newlinesBetween(text: string, from: number, to: number): number {
  let count = 0;
  for (let at = text.indexOf('\n', from); at !== -1 && at < to; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

function relatedLinks(data: Record<string, unknown>): MemoryLink[] {
  return asList(data.related).flatMap((target) => {
    const resolved = joinPath('', target);
    return resolved === undefined ? [] : [{ kind: 'related' as const, target: resolved }];
  });
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
export function parseMemoryText(path: string, input: string, stat: FileStat): MemoryFile {
  const bom = input.charCodeAt(0) === 0xfeff;
  let text = bom ? input.slice(1) : input;
  const { eol } = lineEnding(text);
  text = text.replace(/\r\n/g, '\n');

  let data: Record<string, unknown> = {};
  let frontmatter = '';
  let body = text;
  const end = frontmatterEnd(text);
  const hasFrontmatter = end !== -1;
  if (hasFrontmatter) {
    try {
      const parsed = matter(text.slice(0, end), matterOptions());
      data = (parsed.data ?? {}) as Record<string, unknown>;
      frontmatter = parsed.matter.replace(/^[^\n]*\n/, '');
    } catch (err) {
      if (err instanceof ParseFailure) throw err;
      // gray-matter hands the engine the block starting with the rest of the `---` line, so YAML line N is file line N.
      if (err instanceof YamlFailure) throw new ParseFailure(err.message, err.line, err.hint);
      throw new ParseFailure(`unreadable frontmatter: ${(err as Error).message}`, 1, 'fix the frontmatter');
    }
    body = text.slice(end);
  }
  const bodyLine = hasFrontmatter ? 1 + newlinesBetween(text, 0, end) : 1;
  const meta = metadataOf(data);
  const dateKey = 'modified' in data && !('updated' in data) ? 'modified' : 'updated';

  const file: MemoryFile = {
    path,
    data,
    frontmatter,
    hasFrontmatter,
    bodyLine,
    body,
    name: asString(data.name) ?? fileStem(path),
    description: (asString(data.description) ?? '').replace(/\s+/g, ' '),
    type: (asString(data.type) ?? asString(meta.type))?.toLowerCase(),
    kind: (asString(data.kind) ?? asString(meta.kind))?.toLowerCase(),
    updated: asString(data[dateKey]),
    created: asString(data.created),
    importance: importanceOf(data.importance ?? meta.importance),
    tags: asList(data.tags ?? meta.tags),
    links: [],
    status: asString(data.status)?.toLowerCase(),
    severity: asString(data.severity)?.toLowerCase(),
    expires: asString(data.expires),
    pinned: data.pinned === true,
    supersedes: asList(data.supersedes).map((p) => p.trim()).filter(Boolean),
    mtimeMs: stat.mtimeMs,
    size: stat.size,
    format: { bom, eol, dateKey },
  };
  return withLazyLinks(file, () => [...relatedLinks(data), ...memoryLinks(path, body, bodyLine)]);
}

/**
 * Links are found on first use: listing and indexing never need them, and scanning bodies for them
 * is a fifth of the parse. The property stays enumerable, so the value is still plain data.
 */
function withLazyLinks(file: MemoryFile, find: () => MemoryLink[]): MemoryFile {
  let links: MemoryLink[] | undefined;
  Object.defineProperty(file, 'links', {
    enumerable: true,
    configurable: true,
    get: () => (links ??= find()),
    set: (value: MemoryLink[]) => {
      links = value;
    },
  });
  return file;
}
