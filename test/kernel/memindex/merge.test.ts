import { describe, expect, it } from 'vitest';
import { BEGIN_MARKER, END_MARKER } from '../../../src/kernel/memindex/groups.js';
import { diffIndex, IndexMarkerError, NEW_INDEX_HEADER, renderIndexFile, splitIndex } from '../../../src/kernel/memindex/merge.js';
import { memoryFile } from '../../helpers/memindex.js';

const files = [memoryFile('a.md', { name: 'A', description: 'a', type: 'user' }), memoryFile('b.md', { name: 'B', description: 'b', type: 'project' })];
const BLOCK = [BEGIN_MARKER, '## User', '', '- [A](a.md) — a', '', '## Project', '', '- [B](b.md) — b', END_MARKER].join('\n');

function markerError(text: string): IndexMarkerError {
  try {
    splitIndex(text);
  } catch (err) {
    expect(err).toBeInstanceOf(IndexMarkerError);
    return err as IndexMarkerError;
  }
  throw new Error('no error');
}

describe('renderIndexFile', () => {
  it('creates a new MEMORY.md with a header', () => {
    expect(renderIndexFile(undefined, files)).toBe(`${NEW_INDEX_HEADER}${BLOCK}\n`);
  });

  it('keeps hand-written text outside the markers byte for byte', () => {
    const before = '\uFEFF# My memory  \n\n\tTabs, trailing spaces   \n<!-- a comment -->\n\n\n';
    const after = '   \n\n## Notes\n\n- keep *this*\n\n\n\nno final newline';
    const existing = `${before}${BEGIN_MARKER}\nstale\nlines\n${END_MARKER}${after}`;
    const out = renderIndexFile(existing, files);
    expect(out).toBe(`${before}${BLOCK}${after}`);
    expect(renderIndexFile(out, files)).toBe(out);
  });

  it('keeps text above a new block when MEMORY.md has no markers', () => {
    expect(renderIndexFile('# Memory\n\nWritten by hand.\n', files)).toBe(`# Memory\n\nWritten by hand.\n\n${BLOCK}\n`);
    expect(renderIndexFile('no newline at the end', files)).toBe(`no newline at the end\n\n${BLOCK}\n`);
    expect(renderIndexFile('', files)).toBe(`${BLOCK}\n`);
  });

  it('is stable: a second render gives identical bytes', () => {
    for (const start of [undefined, '', 'hand text', `x\r\n${BEGIN_MARKER}\r\n${END_MARKER}\r\ny\r\n`]) {
      const once = renderIndexFile(start, files);
      expect(renderIndexFile(once, files)).toBe(once);
    }
  });

  it('writes the block with the file’s CRLF line endings', () => {
    const out = renderIndexFile(`top\r\n\r\n${BEGIN_MARKER}\r\nold\r\n${END_MARKER}\r\nbottom\r\n`, files);
    expect(out).toBe(`top\r\n\r\n${BLOCK.replace(/\n/g, '\r\n')}\r\nbottom\r\n`);
  });
});

describe('splitIndex: broken markers', () => {
  it.each([
    [`top\n${BEGIN_MARKER}\nstuff\n`, 'found 1 and 0', 2],
    [`top\n\nstuff\n${END_MARKER}\n`, 'found 0 and 1', 4],
    [`${BEGIN_MARKER}\n${END_MARKER}\n${BEGIN_MARKER}\n${END_MARKER}\n`, 'found 2 and 2', 3],
    [`${BEGIN_MARKER}\nx\n${END_MARKER}\ny\n${END_MARKER}\n`, 'found 1 and 2', 5],
  ])('refuses %j, naming the line', (text, what, line) => {
    const err = markerError(text);
    expect(err.message).toContain(what);
    expect(err.line).toBe(line);
  });

  it('refuses an end marker before the begin marker', () => {
    const err = markerError(`top\n${END_MARKER}\n${BEGIN_MARKER}\n`);
    expect(err.message).toBe(`${END_MARKER} comes before ${BEGIN_MARKER}`);
    expect(err.line).toBe(2);
  });
});

describe('diffIndex', () => {
  it('names the entries that are missing and unexpected', () => {
    const current = renderIndexFile(undefined, files);
    const stale = current.replace('- [B](b.md) — b', '- [Gone](gone.md) — old');
    expect(diffIndex(stale, current)).toEqual({ missing: ['- [B](b.md) — b'], unexpected: ['- [Gone](gone.md) — old'] });
    expect(diffIndex(current, current)).toEqual({ missing: [], unexpected: [] });
    expect(diffIndex(undefined, current).missing).toEqual(['## User', '- [A](a.md) — a', '## Project', '- [B](b.md) — b']);
  });
});
