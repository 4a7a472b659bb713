/**
 * The one Markdown link reader (index, lint, pack, gc): inline links `[text](target)`, reference
 * definitions `[ref]: target`, and `[[name]]` links, outside fenced code and code spans, with their
 * line and column. Memory links resolve against the file's own folder.
 */
import type { MemoryLink } from '../store/types.js';

/** The fence a line opens or closes (three or more backticks or tildes after spaces and tabs): its character. */
function fenceAt(text: string, start: number): string | undefined {
  let i = start;
  while (i < text.length && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
  if (i + 2 >= text.length) return undefined;
  const c = text.charCodeAt(i);
  return (c === 96 || c === 126) && text.charCodeAt(i + 1) === c && text.charCodeAt(i + 2) === c ? text[i] : undefined;
}

/**
 * The one fence tracker: called for each line in turn with the fence it starts with (fenceAt), says
 * whether the line is fenced code. A fence opens with three or more backticks or tildes and closes
 * with the same character; the fence lines count as inside.
 */
function fenceTracker(): (fence: string | undefined) => boolean {
  let open: string | undefined;
  return (fence) => {
    if (fence && !open) {
      open = fence;
      return true;
    }
    if (fence && fence === open) {
      open = undefined;
      return true;
    }
    return open !== undefined;
  };
}

/** For each line, whether it is fenced code (see fenceTracker). */
export function fencedLines(lines: readonly string[]): boolean[] {
  const fenced = fenceTracker();
  return lines.map((line) => fenced(fenceAt(line, 0)));
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

/** The next index of `search` at or after `from`, given the last one found (-1 stays -1). */
function advance(text: string, search: string, found: number, from: number): number {
  return found >= 0 && found < from ? text.indexOf(search, from) : found;
}

/**
 * Every link in a Markdown text, in order, outside fenced code and code spans. Lines are those of
 * `text.split(/\r?\n/)`. Only the lines that matter are visited: those holding `](`, `[[` or `]:`,
 * and those that may open or close a fence (holding three backticks or tildes); no other line
 * changes whether code is fenced.
 */
export function markdownLinks(text: string, firstLine = 1): TextLink[] {
  // The next place of each mark: three that start a link, two that may open or close a fence.
  const found = MARKS.map((mark) => text.indexOf(mark));
  if (!found.slice(0, LINK_MARKS).some((at) => at >= 0)) return [];
  const out: TextLink[] = [];
  const fenced = fenceTracker();
  // `line` is the number of the line starting at `counted`; `from` is where the next unread line starts.
  let line = firstLine;
  let counted = 0;
  for (let from = 0; ; ) {
    for (let i = 0; i < MARKS.length; i++) found[i] = advance(text, MARKS[i], found[i], from);
    const next = earliest(found);
    if (next < 0) return out;
    const start = next === 0 ? 0 : text.lastIndexOf('\n', next - 1) + 1;
    for (let at = text.indexOf('\n', counted); at >= 0 && at < start; at = text.indexOf('\n', at + 1)) line++;
    counted = start;
    const newline = text.indexOf('\n', next);
    const end = newline < 0 ? text.length : newline;
    const inside = fenced(fenceAt(text, start));
    if (!inside && found.slice(0, LINK_MARKS).some((at) => at >= 0 && at < end)) {
      const cut = newline > start && text.charCodeAt(newline - 1) === 13 ? 1 : 0;
      lineLinks(text.slice(start, end - cut), line, out);
    }
    if (newline < 0) return out;
    from = newline + 1;
  }
}

/** The marks the scanner looks for: the first LINK_MARKS start a link (inline, [[name]], reference), the rest may fence code. */
const MARKS = ['](', '[[', ']:', '```', '~~~'] as const;
const LINK_MARKS = 3;

/** The smallest index found (-1 when none is). */
function earliest(found: readonly number[]): number {
  let next = -1;
  for (const at of found) if (at >= 0 && (next < 0 || at < next)) next = at;
  return next;
}

/** A link target without its `#fragment` or `?query` (a target holds no line break). */
function withoutFragment(raw: string): string {
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 35 || c === 63) return raw.slice(0, i);
  }
  return raw;
}

/** The links of one line (outside fenced code), added to out in order. */
function lineLinks(text: string, line: number, out: TextLink[]): void {
  if (text.includes('`')) text = blankCodeSpans(text);
  const found: TextLink[] = [];
  if (text.includes('](')) {
    INLINE.lastIndex = 0;
    for (let m = INLINE.exec(text); m; m = INLINE.exec(text)) found.push({ kind: 'inline', raw: m[1], target: decode(withoutFragment(m[1])), line, column: m.index + 1 });
  }
  const ref = text.includes(']:') ? REFERENCE.exec(text) : null;
  if (ref) found.push({ kind: 'reference', raw: ref[1], target: decode(withoutFragment(ref[1])), line, column: 1 });
  if (text.includes('[[')) {
    WIKI.lastIndex = 0;
    for (let m = WIKI.exec(text); m; m = WIKI.exec(text)) found.push({ kind: 'wiki', raw: m[1], target: m[1].trim(), line, column: m.index + 1 });
  }
  if (found.length > 1) found.sort((a, b) => a.column - b.column);
  for (const link of found) out.push(link);
}

/** True for links that leave the repository: URLs, mail, absolute paths, bare fragments. */
export function isExternal(raw: string): boolean {
  return raw === '' || raw.startsWith('#') || raw.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(raw);
}

/** Normalise a relative path against a directory (both with `/`); undefined when it climbs above the root. */
export function joinPath(dir: string, target: string): string | undefined {
  if (!dir && target !== '.' && target !== '..' && target !== '' && !target.includes('/')) return target;
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
    const hash = link.raw.indexOf('#');
    if (isExternal(link.raw) || !/\.md$/i.test(hash < 0 ? link.raw : link.raw.slice(0, hash))) continue;
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
