/**
 * The one Markdown link reader (index, lint, pack, gc): inline links `[text](target)`, reference
 * definitions `[ref]: target`, and `[[name]]` links, outside fenced code and code spans, with their
 * line and column. Memory links resolve against the file's own folder.
 */
import type { MemoryLink } from '../store/types.js';

const FENCE = /^[ \t]*(`{3,}|~{3,})/;

/**
 * The one fence tracker: for each line, whether it is fenced code. A fence opens with three or more
 * backticks or tildes and closes with the same character; the fence lines count as inside.
 */
export function fencedLines(lines: readonly string[]): boolean[] {
  const out: boolean[] = [];
  let open: string | undefined;
  for (const line of lines) {
    const match = FENCE.exec(line);
    if (match && !open) {
      open = match[1][0];
      out.push(true);
    } else if (match && match[1][0] === open) {
      open = undefined;
      out.push(true);
    } else out.push(open !== undefined);
  }
  return out;
}

export interface TextLink {
  kind: 'inline' | 'reference' | 'wiki';
  /** The target as written (no title, no angle brackets); a `[[name]]` link's name. */
  raw: string;
  /** Decoded, without `#fragment` or `?query` (the name itself for `[[name]]`). */
  target: string;
  line: number;
  column: number;
}

// Linear on any input: link text holds no `[` and the target no bracket or `(`, so no attempt scans past the next one.
const INLINE = /\[(?:[^[\]\\\n]|\\.)*\]\(\s*<?([^()[\]\s>]+)>?(?:\s+"[^"\n]*")?\s*\)/g;
const REFERENCE = /^ {0,3}\[(?:[^\]\\\n]|\\.)+\]:\s*<?([^\s>]+)>?/;
const WIKI = /\[\[([^[\]|#\n]+)(?:[#|][^[\]\n]*)?\]\]/g;

function decode(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The line with its code spans (a backtick run up to the next run of the same length) blanked out; linear. */
function blankCodeSpans(line: string): string {
  const runs: { at: number; length: number }[] = [];
  for (let i = 0; i < line.length; i++) {
    if (line[i] !== '`') continue;
    let j = i;
    while (line[j] === '`') j++;
    runs.push({ at: i, length: j - i });
    i = j - 1;
  }
  // For each run, the index of the next run of the same length.
  const next = new Array<number>(runs.length).fill(-1);
  const lastOfLength = new Map<number, number>();
  for (let k = runs.length - 1; k >= 0; k--) {
    next[k] = lastOfLength.get(runs[k].length) ?? -1;
    lastOfLength.set(runs[k].length, k);
  }
  let out = '';
  let from = 0;
  for (let k = 0; k < runs.length; k++) {
    const close = next[k];
    if (close === -1 || runs[k].at < from) continue;
    const end = runs[close].at + runs[close].length;
    out += line.slice(from, runs[k].at) + ' '.repeat(end - runs[k].at);
    from = end;
    k = close;
  }
  return out + line.slice(from);
}

/** Every link in a Markdown text, in order, outside fenced code and code spans. */
export function markdownLinks(text: string, firstLine = 1): TextLink[] {
  if (!text.includes('](') && !text.includes('[[') && !text.includes(']:')) return [];
  const out: TextLink[] = [];
  const lines = text.split(/\r?\n/);
  const fenced = fencedLines(lines);
  for (let i = 0; i < lines.length; i++) {
    if (fenced[i]) continue;
    let line = lines[i];
    if (!line.includes('](') && !line.includes('[[') && !line.includes(']:')) continue;
    if (line.includes('`')) line = blankCodeSpans(line);
    const found: TextLink[] = [];
    for (const m of line.matchAll(INLINE)) found.push({ kind: 'inline', raw: m[1], target: decode(m[1].replace(/[#?].*$/, '')), line: firstLine + i, column: m.index + 1 });
    const ref = REFERENCE.exec(line);
    if (ref) found.push({ kind: 'reference', raw: ref[1], target: decode(ref[1].replace(/[#?].*$/, '')), line: firstLine + i, column: 1 });
    for (const m of line.matchAll(WIKI)) found.push({ kind: 'wiki', raw: m[1], target: m[1].trim(), line: firstLine + i, column: m.index + 1 });
    out.push(...found.sort((a, b) => a.column - b.column));
  }
  return out;
}

/** True for links that leave the repository: URLs, mail, absolute paths, bare fragments. */
export function isExternal(raw: string): boolean {
  return raw === '' || raw.startsWith('#') || raw.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(raw);
}

/** Normalise a relative path against a directory (both with `/`); undefined when it climbs above the root. */
export function joinPath(dir: string, target: string): string | undefined {
  const out: string[] = [];
  for (const part of (dir ? `${dir}/${target}` : target).split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(part);
  }
  return out.join('/');
}

/**
 * Links from a memory file's body to other memory files: `[[name]]` links, and Markdown links to
 * `.md` files resolved against the file's own folder (links that climb out of the memory directory
 * are not links between memory files).
 */
export function memoryLinks(path: string, body: string, firstLine: number): MemoryLink[] {
  const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
  const links: MemoryLink[] = [];
  for (const link of markdownLinks(body, firstLine)) {
    if (link.kind === 'wiki') {
      links.push({ kind: 'wiki', target: link.target, line: link.line });
      continue;
    }
    if (isExternal(link.raw) || !/\.md$/i.test(link.raw.replace(/#.*$/, ''))) continue;
    const resolved = joinPath(dir, link.target);
    if (resolved !== undefined) links.push({ kind: 'markdown', target: resolved, line: link.line });
  }
  return links;
}

/** Paths inside the memory directory that a text (MEMORY.md) links to: external links, `[[name]]` links and links climbing out left out. */
export function linkedPaths(text: string): Set<string> {
  const out = new Set<string>();
  for (const link of markdownLinks(text)) {
    if (link.kind === 'wiki' || isExternal(link.raw)) continue;
    const path = joinPath('', link.target);
    if (path !== undefined) out.add(path);
  }
  return out;
}
