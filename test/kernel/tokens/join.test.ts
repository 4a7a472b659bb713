import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { tiktoken } from '../../helpers/tiktoken.js';
import { countJoined, firstSplit, joinsCleanly, lastSplit, splitChunks } from '../../../src/kernel/tokens/join.js';

const encoders = { o200k_base: tiktoken.o200k_base, cl100k_base: tiktoken.cl100k_base };

describe.each(Object.entries(encoders))('joined counts (%s)', (_name, tk) => {
  const count = (t: string) => tk.encode(t, [], []).length;
  const chunk = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 20 }),
    fc.constantFrom('\n', '\n\n', '  \n', '.\n', '```\n', '---\n', 'x/\n', '\r\n', "'s\n", '123\n', '🙂\n', '<|endoftext|>\n', '  ', '\t', ' /', 'é'),
  );
  const text = fc.array(chunk, { maxLength: 8 }).map((c) => c.join(''));

  it('adds up exactly when the left part ends with a newline and the right one starts with neither whitespace nor /', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        const left = `${a}\n`;
        fc.pre(joinsCleanly(left, b));
        expect(count(left + b)).toBe(count(left) + count(b));
      }),
      { numRuns: 1500 },
    );
  });

  it('countJoined is exact for any parts, clean joins or not', () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 6 }), (parts) => {
        expect(countJoined(parts, count)).toBe(count(parts.join('')));
      }),
      { numRuns: 500 },
    );
  });

  // Text rich in pre-token boundaries and multi-byte characters: newlines before words, spaces, `/`,
  // apostrophes, digits, CJK, emoji with modifiers, combining marks, CRLF, code fences.
  const rich = fc
    .array(
      fc.oneof(
        chunk,
        fc.constantFrom('\nword', '\n/usr', '\n\nnext', '\n é', ' — ', '…', '日本語\n', '👍🏽\n', 'e\u0301', '\r\nA', "\nI'll", '\n123', '\n```ts\n', 'x'.repeat(300), '\n- item'),
      ),
      { maxLength: 30 },
    )
    .map((c) => c.join(''));

  it('countJoined is exact for random cuts of a text (inside characters, pieces and lines too)', () => {
    fc.assert(
      fc.property(rich, fc.array(fc.nat(), { maxLength: 8 }), (whole, cuts) => {
        const at = [...new Set(cuts.map((c) => c % (whole.length + 1)))].sort((a, b) => a - b);
        const parts = [...at, whole.length].map((end, i) => whole.slice(i === 0 ? 0 : at[i - 1], end));
        expect(parts.join('')).toBe(whole);
        expect(countJoined(parts, count)).toBe(count(whole));
      }),
      { numRuns: 400 },
    );
  });

  it('line-bounded chunks add up to the whole count, cut only at split points', () => {
    fc.assert(
      fc.property(rich, fc.integer({ min: 1, max: 200 }), (whole, size) => {
        const chunks = splitChunks(whole, size);
        expect(chunks.join('')).toBe(whole);
        for (const c of chunks.slice(1)) expect(joinsCleanly('x\n', c) && !/^[\s/]/u.test(c)).toBe(true);
        expect(chunks.reduce((sum, c) => sum + count(c), 0)).toBe(count(whole));
      }),
      { numRuns: 300 },
    );
  });

  it('finds the first and last split points', () => {
    expect(firstSplit('a\n b\nc\nd')).toBe(5);
    expect(lastSplit('a\n b\nc\nd')).toBe(7);
    expect(firstSplit('a\n/b\n')).toBe(-1);
    expect(lastSplit('\nx')).toBe(1);
    expect(firstSplit('one line')).toBe(-1);
  });

  it('refuses joins that really change the count', () => {
    // ".\n" + "/x": o200k_base keeps `/` with the newline; "a\n" + "\nb": the newline run grows.
    expect(joinsCleanly('end.\n', '/path')).toBe(false);
    expect(joinsCleanly('a\n', '\nb')).toBe(false);
    expect(joinsCleanly('a', 'b')).toBe(false);
    expect(joinsCleanly('a\n', '# b')).toBe(true);
  });
});
