import { describe, expect, it } from 'vitest';
import { condenseBlock, HEAD_LINES, isLongBlock, MAX_BLOCK_LINES } from '../../../src/kernel/capacity/condense.js';

const lines = (n: number, make = (i: number) => `line ${i}`) => Array.from({ length: n }, (_, i) => make(i + 1)).join('\n');

describe('isLongBlock', () => {
  it('is true past 50 lines (or the limit given)', () => {
    expect(MAX_BLOCK_LINES).toBe(50);
    expect(isLongBlock(lines(50))).toBe(false);
    expect(isLongBlock(lines(51))).toBe(true);
    expect(isLongBlock(lines(4), 3)).toBe(true);
  });
});

describe('condenseBlock', () => {
  const text = lines(60, (i) => (i === 30 || i === 40 || i === 55 ? `Error: boom ${i}` : i === 45 ? `>> mark ${i}` : `line ${i}`));

  it('keeps the first 10 lines, every later error line, and counts the rest', () => {
    expect(HEAD_LINES).toBe(10);
    expect(condenseBlock(text, { errorLine: /^Error:/ })).toEqual({
      total: 60,
      head: lines(10).split('\n'),
      kept: ['Error: boom 30', 'Error: boom 40', 'Error: boom 55'],
      errors: 3,
      marked: 0,
      omitted: 47,
    });
  });

  it('keeps marked lines whatever the error limit, and at most maxErrors error lines', () => {
    expect(condenseBlock(text, { errorLine: /^Error:/, marked: /^>>/, maxErrors: 1, head: 2 })).toEqual({
      total: 60,
      head: ['line 1', 'line 2'],
      kept: ['Error: boom 30', '>> mark 45'],
      errors: 1,
      marked: 1,
      omitted: 56,
    });
  });

  it('does not look for errors in the head', () => {
    expect(condenseBlock('Error: first\nok\nok', { errorLine: /^Error:/, head: 1 })).toMatchObject({ kept: [], errors: 0, omitted: 2 });
  });
});
