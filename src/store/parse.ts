import matter from 'gray-matter';
import { parseFrontmatterYaml, YamlFailure } from './yaml.js';
import type { FileFormat, MemoryFile, MemoryLink } from './types.js';

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

/** Where the frontmatter block is, checked before gray-matter sees the text. */
function frontmatterShape(text: string): 'none' | 'yaml' {
  if (!text.startsWith('---')) return 'none';
  const firstLine = text.slice(0, text.indexOf('\n') === -1 ? text.length : text.indexOf('\n'));
  if (/^-{4,}/.test(firstLine)) return 'none';
  const language = firstLine.slice(3).trim();
  if (/^(js|javascript)$/i.test(language)) {
    throw new ParseFailure(`\`---${language}\` (JavaScript) frontmatter is never evaluated`, 1, 'rewrite the frontmatter as YAML (a plain `---` line)');
  }
  if (language !== '' && !/^(yaml|yml)$/i.test(language)) {
    throw new ParseFailure(`unsupported frontmatter language \`${language}\``, 1, 'use YAML frontmatter (a plain `---` line)');
  }
  if (!/\n---[ \t]*(\n|$)/.test(text)) {
    throw new ParseFailure('frontmatter opened on line 1 is never closed', 1, 'add a line `---` after the last frontmatter key');
  }
  return 'yaml';
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

function posixJoin(dir: string, target: string): string {
  const parts = (dir ? `${dir}/${target}` : target).split('/');
  const out: string[] = [];
  for (const part of parts) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return out.join('/');
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

const MD_LINK = /\[[^\]\n]*\]\(<?([^)\s>]+\.md)(?:#[^)\s>]*)?>?(?:\s+"[^"]*")?\)/gi;
const WIKI_LINK = /\[\[([^\]|#\n]+)(?:[#|][^\]\n]*)?\]\]/g;

/** Markdown links to .md files and [[name]] links in the body, outside fenced code. */
export function bodyLinks(path: string, body: string, firstLine: number): MemoryLink[] {
  if (!body.includes('[')) return [];
  const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
  const links: MemoryLink[] = [];
  let fence: string | undefined;
  const lines = body.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fenceMatch = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fenceMatch) {
      if (!fence) fence = fenceMatch[1][0];
      else if (fenceMatch[1][0] === fence) fence = undefined;
      continue;
    }
    if (fence || !line.includes('[')) continue;
    for (const m of line.matchAll(MD_LINK)) {
      const target = m[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('/')) continue;
      links.push({ kind: 'markdown', target: posixJoin(dir, safeDecode(target)), line: firstLine + i });
    }
    for (const m of line.matchAll(WIKI_LINK)) {
      links.push({ kind: 'wiki', target: m[1].trim(), line: firstLine + i });
    }
  }
  return links;
}

function relatedLinks(data: Record<string, unknown>): MemoryLink[] {
  return asList(data.related).map((target) => ({ kind: 'related' as const, target: posixJoin('', target) }));
}

function importanceOf(value: unknown): number {
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) return 5;
  return Math.min(10, Math.max(1, n));
}

/** Split a decoded text into frontmatter data and body, and normalise it into a MemoryFile. */
export function parseMemoryText(path: string, input: string, stat: FileStat): MemoryFile {
  const bom = input.charCodeAt(0) === 0xfeff;
  let text = bom ? input.slice(1) : input;
  const eol: FileFormat['eol'] = text.includes('\r\n') ? '\r\n' : '\n';
  if (eol === '\r\n') text = text.replace(/\r\n/g, '\n');

  let data: Record<string, unknown> = {};
  let frontmatter = '';
  let body = text;
  const hasFrontmatter = frontmatterShape(text) === 'yaml';
  if (hasFrontmatter) {
    try {
      const parsed = matter(text, matterOptions());
      data = (parsed.data ?? {}) as Record<string, unknown>;
      frontmatter = parsed.matter;
      body = parsed.content;
    } catch (err) {
      if (err instanceof ParseFailure) throw err;
      // gray-matter hands the engine the block starting with the rest of the `---` line, so YAML line N is file line N.
      if (err instanceof YamlFailure) throw new ParseFailure(err.message, err.line, err.hint);
      throw new ParseFailure(`unreadable frontmatter: ${(err as Error).message}`, 1, 'fix the frontmatter');
    }
    frontmatter = frontmatter.replace(/^[^\n]*\n/, '');
  }
  const bodyLine = text.slice(0, text.length - body.length).split('\n').length;
  const meta = metadataOf(data);
  const dateKey = 'modified' in data && !('updated' in data) ? 'modified' : 'updated';

  return {
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
    links: [...relatedLinks(data), ...bodyLinks(path, body, bodyLine)],
    status: asString(data.status)?.toLowerCase(),
    severity: asString(data.severity)?.toLowerCase(),
    expires: asString(data.expires),
    pinned: data.pinned === true,
    mtimeMs: stat.mtimeMs,
    size: stat.size,
    format: { bom, eol, dateKey },
  };
}
