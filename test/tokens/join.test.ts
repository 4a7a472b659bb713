import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { tiktoken } from '../helpers/tiktoken.js';
import { countJoined, joinsCleanly } from '../../src/tokens/join.js';

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

  it('refuses joins that really change the count', () => {
    // ".\n" + "/x": o200k_base keeps `/` with the newline; "a\n" + "\nb": the newline run grows.
    expect(joinsCleanly('end.\n', '/path')).toBe(false);
    expect(joinsCleanly('a\n', '\nb')).toBe(false);
    expect(joinsCleanly('a', 'b')).toBe(false);
    expect(joinsCleanly('a\n', '# b')).toBe(true);
  });
});
