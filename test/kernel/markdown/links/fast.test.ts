import { describe, expect, it } from 'vitest';
import { rng as random } from '../../../../bench/corpus.js';
import { fencedLines, joinPath, markdownLinks, memoryLinks, type TextLink } from '../../../../src/kernel/markdown/links.js';

// The line-by-line reader that markdownLinks replaced (split every line, a regular expression per
// line for fences, matchAll per line): the reference the faster reader must match.
const FENCE = /^[ \t]*(`{3,}|~{3,})/;
const INLINE = /\[(?:[^[\]\\\n]|\\.)*\]\(\s*<?([^()[\]\s>]+)>?(?:\s+"[^"\n]*")?\s*\)/g;
const REFERENCE = /^ {0,3}\[(?:[^\]\\\n]|\\.)+\]:\s*<?([^\s>]+)>?/;
const WIKI = /\[\[([^[\]|#\n]+)(?:[#|][^[\]\n]*)?\]\]/g;

function referenceFenced(lines: readonly string[]): boolean[] {
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

function decode(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function blankCodeSpans(line: string): string {
  const runs: { at: number; length: number }[] = [];
  for (let i = 0; i < line.length; i++) {
    if (line[i] !== '`') continue;
    let j = i;
    while (line[j] === '`') j++;
    runs.push({ at: i, length: j - i });
    i = j - 1;
  }
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

function referenceLinks(text: string, firstLine = 1): TextLink[] {
  if (!text.includes('](') && !text.includes('[[') && !text.includes(']:')) return [];
  const out: TextLink[] = [];
  const lines = text.split(/\r?\n/);
  const fenced = referenceFenced(lines);
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

function referenceJoin(dir: string, target: string): string | undefined {
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

function referenceMemoryLinks(path: string, body: string, firstLine: number) {
  const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
  const links: { kind: string; target: string; line: number }[] = [];
  for (const link of referenceLinks(body, firstLine)) {
    if (link.kind === 'wiki') {
      links.push({ kind: 'wiki', target: link.target, line: link.line });
      continue;
    }
    const external = link.raw === '' || link.raw.startsWith('#') || link.raw.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(link.raw);
    if (external || !/\.md$/i.test(link.raw.replace(/#.*$/, ''))) continue;
    const resolved = referenceJoin(dir, link.target);
    if (resolved !== undefined) links.push({ kind: 'markdown', target: resolved, line: link.line });
  }
  return links;
}

const PIECES = [
  '[a](b.md)', '[x](../up.md#part)', '[y](dir/./c.MD?q=1)', '[z](<sp ace.md>)', '[t](t.md "title")', '[e](https://x.io/a.md)', '[m](mailto:a@b)', '[h](#frag)', '[p](/abs.md)', '[d](%41%zz.md)', '[d2](caf%C3%A9.md)',
  '[[name]]', '[[ spaced name ]]', '[[a|alias]]', '[[b#head]]', '[[', ']]', '[ref]: ref.md', '   [r2]: <r2.md> "t"', '[r3]:', '](', ']:', '[', ']', '(', ')', '\\[', '\\]',
  '```', '~~~', '````', '  ```js', '\t~~~', '`', '``', '`code [a](in.md)`', '``x`` ', 'text', ' ', 'é', '→', '\r', '#', '?', 'a.md', './', '../', '..', '/',
];

function markdown(next: () => number): string {
  const pick = <T,>(a: readonly T[]) => a[Math.floor(next() * a.length)];
  let out = '';
  const n = Math.floor(next() * 40);
  for (let i = 0; i < n; i++) out += next() < 0.25 ? pick(['\n', '\r\n', '\n\n', '\n   ', '\n```\n', '\n~~~\n']) : pick(PIECES);
  return out;
}

describe('the faster link reader finds exactly what the line-by-line reader did', () => {
  it('on random Markdown with fences, code spans, CRLF and every kind of link', () => {
    const next = random(3);
    for (let i = 0; i < 5000; i++) {
      const text = markdown(next);
      const firstLine = 1 + Math.floor(next() * 5);
      expect(markdownLinks(text, firstLine), JSON.stringify(text)).toEqual(referenceLinks(text, firstLine));
      const path = next() < 0.5 ? 'note.md' : 'a/b/note.md';
      expect(memoryLinks(path, text, firstLine), JSON.stringify(text)).toEqual(referenceMemoryLinks(path, text, firstLine));
      const lines = text.split(/\r?\n/);
      expect(fencedLines(lines)).toEqual(referenceFenced(lines));
    }
  });

  it('joins paths as before', () => {
    const parts = ['', '.', '..', 'a', 'b.md', '/', 'a/b', 'a//b', './a', '../a', 'a/..', 'a/../..'];
    for (const dir of ['', 'x', 'x/y', '..']) for (const a of parts) for (const b of parts) expect(joinPath(dir, a + b), `${dir} ${a}${b}`).toEqual(referenceJoin(dir, a + b));
  });
});
