import { describe, expect, it } from 'vitest';
import { BEGIN_MARKER, END_MARKER } from '../../../src/kernel/memindex/groups.js';
import { renderIndexFile } from '../../../src/kernel/memindex/merge.js';
import { indexLine, renderIndexBlock } from '../../../src/kernel/memindex/render.js';
import type { MemoryFile } from '../../../src/kernel/store/types.js';
import { memoryFile } from '../../helpers/memindex.js';

const ROOMY = { lines: 10_000, bytes: 10_000_000 };
const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

describe('renderIndexBlock', () => {
  it('groups User, Feedback, Project, Reference, Other, Sessions; by path within a group', () => {
    const files = [
      memoryFile('z_ref.md', { name: 'Ref', description: 'r', type: 'reference' }),
      memoryFile('b_proj.md', { name: 'B', description: 'b', type: 'project' }),
      memoryFile('a_proj.md', { name: 'A', description: 'a', type: 'Project' }),
      memoryFile('sessions/2026-11-21T100000-x.md', { name: 'S', description: 's', created: '2026-11-21T10:00:00Z' }),
      memoryFile('odd.md', { name: 'Odd', description: 'unknown type', type: 'decision' }),
      memoryFile('notype.md', {}, 'no frontmatter'),
      memoryFile('kebab.md', { name: 'kebab-name', description: 'k' }, ''),
      memoryFile('fb.md', { name: 'F', description: 'f', type: 'feedback' }),
      memoryFile('user.md', { name: 'U', description: 'u', type: 'user' }),
    ];
    expect(renderIndexBlock(files, ROOMY)).toEqual([
      BEGIN_MARKER,
      '## User', '', '- [U](user.md) — u',
      '',
      '## Feedback', '', '- [F](fb.md) — f',
      '',
      '## Project', '', '- [A](a_proj.md) — a', '- [B](b_proj.md) — b',
      '',
      '## Reference', '', '- [Ref](z_ref.md) — r',
      '',
      '## Other', '', '- [kebab-name](kebab.md) — k', '- [notype](notype.md)', '- [Odd](odd.md) — unknown type',
      '',
      '## Sessions', '', '- [S](sessions/2026-11-21T100000-x.md) — s',
      END_MARKER,
    ]);
  });

  it('reads metadata.type (the newer Claude Code shape)', () => {
    const file = memoryFile('k.md', {}, '');
    const kebab = { ...file, type: undefined };
    expect(renderIndexBlock([kebab], ROOMY)[1]).toBe('## Other');
    const withMeta = memoryFile('m.md', {}, '');
    Object.assign(withMeta, { type: 'user' });
    expect(renderIndexBlock([withMeta], ROOMY)[1]).toBe('## User');
  });

  it('says so when there are no files', () => {
    expect(renderIndexBlock([], ROOMY)).toEqual([BEGIN_MARKER, '_No memory files yet: add one with `memctx add`._', END_MARKER]);
  });

  it('escapes link text and encodes link targets', () => {
    expect(indexLine(memoryFile('dir/a b (1).md', { name: 'A [draft]\\x', description: 'd' }))).toBe('- [A \\[draft\\]\\\\x](dir/a%20b%20%281%29.md) — d');
    expect(indexLine(memoryFile('a.md', { name: 'multi\tspace', description: 'one  two' }))).toBe('- [multi space](a.md) — one two');
  });

  it('keeps only the latest 5 sessions, newest first, and counts the rest', () => {
    const sessions = [1, 2, 3, 4, 5, 6, 7, 8].map((d) => memoryFile(`sessions/2026-11-0${d}T100000-s.md`, { name: `S${d}`, description: 'x', created: `2026-11-0${d}T10:00:00Z` }));
    const flushed = memoryFile('notes/flush.md', { name: 'K', description: 'kind session elsewhere', kind: 'session', created: '2026-11-05T12:00:00Z' });
    const block = renderIndexBlock([...sessions.reverse(), flushed], ROOMY);
    expect(block.slice(1, -1)).toEqual([
      '## Sessions',
      '',
      '- [S8](sessions/2026-11-08T100000-s.md) — x',
      '- [S7](sessions/2026-11-07T100000-s.md) — x',
      '- [S6](sessions/2026-11-06T100000-s.md) — x',
      '- [K](notes/flush.md) — kind session elsewhere',
      '- [S5](sessions/2026-11-05T100000-s.md) — x',
      '- … and 4 older sessions: `memctx ls --kind session --unlisted`',
    ]);
  });

  it('orders sessions without dates by their file names, newest first', () => {
    const files = ['2026-11-01T1', '2026-11-03T1', '2026-11-02T1'].map((n) => memoryFile(`sessions/${n}.md`, { name: n }));
    expect(renderIndexBlock(files, ROOMY).slice(3, 6)).toEqual(['- [2026-11-03T1](sessions/2026-11-03T1.md)', '- [2026-11-02T1](sessions/2026-11-02T1.md)', '- [2026-11-01T1](sessions/2026-11-01T1.md)']);
  });

  it('gives the same bytes whatever order the files come in', () => {
    const files = Array.from({ length: 60 }, (_, i) => memoryFile(`f${i % 7}_${i}.md`, { name: `N${i}`, description: `d${i}`, type: ['user', 'project', 'feedback'][i % 3], importance: (i % 10) + 1 }));
    const shuffled = [...files].sort((a, b) => (a.name.length * 31 + a.path.length) % 17 - ((b.name.length * 31 + b.path.length) % 17) || (a.path < b.path ? 1 : -1));
    expect(renderIndexFile(undefined, shuffled, { maxLines: 40 })).toBe(renderIndexFile(undefined, files, { maxLines: 40 }));
  });
});

function manyFiles(perGroup: number, description: (i: number) => string = (i) => `about item ${i}`): MemoryFile[] {
  const files: MemoryFile[] = [];
  for (const type of ['user', 'feedback', 'project', 'reference']) {
    for (let i = 1; i <= perGroup; i++) {
      files.push(memoryFile(`${type}_${String(i).padStart(3, '0')}.md`, { name: `${type} ${i}`, description: description(i), type, importance: (i % 10) + 1 }));
    }
  }
  for (let i = 1; i <= perGroup; i++) files.push(memoryFile(`other_${String(i).padStart(3, '0')}.md`, { name: `other ${i}` }));
  for (let d = 1; d <= 9; d++) files.push(memoryFile(`sessions/2026-11-0${d}T000000-s.md`, { name: `s${d}`, created: `2026-11-0${d}` }));
  return files;
}

function overflowCounts(text: string): Record<string, number> {
  const counts: Record<string, number> = {};
  let group = '';
  for (const line of text.split('\n')) {
    if (line.startsWith('## ')) group = line.slice(3);
    const m = /^- … and (\d+) (?:more|older sessions): `(.+)`$/.exec(line);
    if (m) counts[group] = Number(m[1]);
  }
  return counts;
}

describe('the 200-line and 25 KB limits', () => {
  it('fits 309 files into 200 lines with an overflow line per cut group', () => {
    const files = manyFiles(60);
    const text = renderIndexFile(undefined, files);
    expect(lineCount(text)).toBeLessThanOrEqual(200);
    expect(lineCount(text)).toBeGreaterThan(190);
    const shown = (group: string) => text.split('\n').filter((l) => l.startsWith(`- [${group} `)).length;
    const counts = overflowCounts(text);
    for (const [title, type] of [['User', 'user'], ['Feedback', 'feedback'], ['Project', 'project'], ['Reference', 'reference'], ['Other', 'other']]) {
      expect(shown(type) + counts[title]).toBe(60);
      expect(shown(type)).toBeGreaterThan(20);
    }
    expect(counts.Sessions).toBe(4);
    expect(text).toContain('- … and ' + counts.User + ' more: `memctx ls --type user --unlisted`');
    expect(text).toContain('- … and ' + counts.Other + ' more: `memctx ls --type other --unlisted`');
  });

  it('keeps the most important entries of a cut group, listed by path', () => {
    const text = renderIndexFile(undefined, manyFiles(60));
    const userLines = text.split('\n').filter((l) => l.startsWith('- [user '));
    const importances = userLines.map((l) => (Number(/user (\d+)\]/.exec(l)![1]) % 10) + 1);
    const cutoff = Math.min(...importances);
    // Every user file more important than the lowest one shown is shown.
    expect(importances.filter((n) => n > cutoff).length).toBe(6 * (10 - cutoff));
    const paths = userLines.map((l) => /\]\((.+)\)/.exec(l)![1]);
    expect([...paths].sort()).toEqual(paths);
  });

  it('a cut group keeps the entries a full sort puts first: pinned, importance, newest update, path', () => {
    let seed = 7;
    const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    const files = Array.from({ length: 700 }, (_, i) => {
      const fields: Record<string, string | number | boolean> = { name: `p${i}`, description: 'd', type: 'project', importance: 1 + next(10) };
      if (next(3) > 0) fields.updated = `2026-0${1 + next(9)}-1${next(10)}`;
      if (next(50) === 0) fields.pinned = true;
      return memoryFile(`n${String(next(1000)).padStart(3, '0')}_${i}.md`, fields);
    });
    const updated = (f: MemoryFile) => (f.updated ? Date.parse(f.updated) : Number.NEGATIVE_INFINITY);
    const expected = [...files]
      .sort((a, b) => Number(b.pinned) - Number(a.pinned) || b.importance - a.importance || updated(b) - updated(a) || (a.path < b.path ? -1 : 1))
      .map((f) => f.path);
    const block = renderIndexBlock(files, { lines: 120, bytes: 1_000_000 });
    const listed = block.flatMap((line) => /\]\((.+)\)/.exec(line)?.[1] ?? []);
    expect(listed.length).toBeGreaterThan(100);
    expect(listed).toEqual(expected.slice(0, listed.length).sort());
    expect(block).toContain(`- … and ${700 - listed.length} more: \`memctx ls --type project --unlisted\``);
  });

  it('fits long descriptions into 25,000 bytes', () => {
    const files = manyFiles(40, (i) => `${'long description '.repeat(12)}${i}`);
    const text = renderIndexFile(undefined, files);
    expect(bytes(text)).toBeLessThanOrEqual(25_000);
    expect(bytes(text)).toBeGreaterThan(23_000);
    expect(lineCount(text)).toBeLessThan(200);
    expect(Object.keys(overflowCounts(text))).toEqual(['User', 'Feedback', 'Project', 'Reference', 'Other', 'Sessions']);
  });

  it('counts the hand-written text against the limits', () => {
    const hand = Array.from({ length: 150 }, (_, i) => `hand line ${i}`).join('\n');
    const text = renderIndexFile(`${hand}\n\n${BEGIN_MARKER}\n${END_MARKER}\n`, manyFiles(60));
    expect(text.startsWith(`${hand}\n\n${BEGIN_MARKER}\n`)).toBe(true);
    expect(lineCount(text)).toBeLessThanOrEqual(200);
  });

  it('stays within 25,000 bytes with CRLF line endings', () => {
    const files = manyFiles(40, (i) => `${'long description '.repeat(12)}${i}`);
    const text = renderIndexFile(`# Memory\r\n\r\n${BEGIN_MARKER}\r\n${END_MARKER}\r\n`, files);
    expect(text).not.toMatch(/[^\r]\n/);
    expect(bytes(text)).toBeLessThanOrEqual(25_000);
  });

  it('honours other limits', () => {
    const small = renderIndexFile(undefined, manyFiles(10), { maxLines: 30, maxBytes: 100_000 });
    expect(lineCount(small)).toBeLessThanOrEqual(30);
    expect(lineCount(small)).toBeGreaterThan(25);
    const tiny = renderIndexFile(undefined, manyFiles(10), { maxBytes: 2_000 });
    expect(bytes(tiny)).toBeLessThanOrEqual(2_000);
    expect(bytes(tiny)).toBeGreaterThan(1_800);
    const twoSessions = renderIndexFile(undefined, manyFiles(10), { sessions: 2 });
    expect(overflowCounts(twoSessions)).toEqual({ Sessions: 7 });
  });

  it('still renders headings and counts when hand-written text leaves no room', () => {
    const hand = 'x\n'.repeat(250);
    const text = renderIndexFile(`${hand}${BEGIN_MARKER}\n${END_MARKER}\n`, manyFiles(3));
    expect(overflowCounts(text)).toEqual({ User: 3, Feedback: 3, Project: 3, Reference: 3, Other: 3, Sessions: 9 });
  });
});
