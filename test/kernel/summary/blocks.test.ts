import { describe, expect, it } from 'vitest';
import { summarizeBlock } from '../../../src/kernel/summary/blocks.js';

describe('50-line rule', () => {
  it('keeps blocks of up to 50 lines as they are', () => {
    const text = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\n');
    expect(summarizeBlock(text)).toEqual({ text, total: 50, omitted: 0 });
  });

  it('stores a longer block as its first lines, its error lines and a count', () => {
    const lines = Array.from({ length: 100 }, (_, i) => `ok ${i + 1}`);
    lines[46] = 'Error: SQLite migration failed at step 3/7.';
    lines[80] = 'FAIL test/auth.test.ts';
    const block = summarizeBlock(lines.join('\n'));
    expect(block.omitted).toBe(88);
    expect(block.text.split('\n')).toEqual([
      ...lines.slice(0, 10),
      '[error lines from the remaining 90:]',
      'Error: SQLite migration failed at step 3/7.',
      'FAIL test/auth.test.ts',
      '[… 88 of 100 lines left out]',
    ]);
  });
});
