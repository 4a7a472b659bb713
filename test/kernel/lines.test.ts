import { describe, expect, it } from 'vitest';
import { lineAt } from '../../src/kernel/lines.js';

describe('lineAt', () => {
  it('gives the 1-based line of an offset; a newline belongs to the line it ends', () => {
    const text = 'one\ntwo\n\nfour';
    expect([0, 3, 4, 7, 8, 9, 12, text.length].map((offset) => lineAt(text, offset))).toEqual([1, 1, 2, 2, 3, 4, 4, 4]);
    expect(lineAt('', 0)).toBe(1);
  });
});
