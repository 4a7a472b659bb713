import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BINARY_UNIT } from '../../helpers/arbitraries.js';
import { tiktoken } from '../../helpers/tiktoken.js';
import { requireRankFile } from '../../../src/kernel/tokens/rank-file.js';
import { SMALL_TEXT, classOf, knownClass, regexClass, smallTextCounter, splitPieces } from '../../../src/kernel/tokens/small.js';
import type { EncodingName } from '../../../src/kernel/tokens/index.js';

/** The pieces js-tiktoken's own split pattern finds. */
function regexPieces(encoding: EncodingName, text: string): string[] {
  return text.match(new RegExp(requireRankFile(encoding).pat_str, 'gu')) ?? [];
}

const SAMPLES = [
  '',
  "The quick brown fox. It's what they've said; we'll see. I'M YOU'RE THEY'LL we'd She'S don't 'x '",
  'export function add(a: number): number {\n  return a + 1; // sum\n}\r\n\tconst x = [1, 2].map((n) => n ** 2);\n\n\n',
  '---\nname: Session\n---\n\n## Goal\n\n- item **bold** [link](x.md) path/to/file.ts //a/b/\n/\n',
  'Größe naïve café — 日本語のテキスト 中文 한국어 עברית العربية Ελληνικά 🙂👍🏽 👨‍👩‍👧 e\u0301 ﬁ ǅungla ǅ',
  `a${' '.repeat(30)}b\n\n  \n${'\t'.repeat(7)}\n   \r\n\r\n  x  \n \u00a0\u2028x\u3000y\v\fz `,
  'before <|endoftext|> middle <|im_start|>user\n',
  '1234567890 3.14159 1,000,000 0x1F 2026-11-21T15:30:12Z ٣٤٥٦ Ⅻ ½',
  'lone \uD800 high and \uDC00 low, pair \uD83D\uDE00 \u0301\u0301a \u0301A \u02b0x ʰʰA ñ',
  "'s's 'S 'Re'rE 'Ll'lL 'ſ 'll ' ' '",
];

const FRAGMENTS = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc.string({ unit: BINARY_UNIT, maxLength: 8 }),
  fc.string({ unit: fc.constantFrom(...'aZ9 \n\r\t\'/.,-_*#é\u0301ǅʰ日٣\u00a0\u2028🙂ſ\uD800'.split('')), maxLength: 16 }),
  fc.constantFrom(' ', '  ', '\n', '\r\n', ' \n ', '\t', "'s", "'LL", "'rE", '<|endoftext|>', '```', '//', '/\n', '123', '4567', 'é', '🙂', '日本', 'ABCdef', 'abcDEF'),
  fc.stringMatching(/^[a-zA-Z]{1,40}$/),
  fc.stringMatching(/^[ \n\t\r]{1,12}$/),
  fc.stringMatching(/^[=\-*#./]{1,12}$/),
);

describe.each(['o200k_base', 'cl100k_base'] as const)('short texts split by hand (%s)', (encoding) => {
  const counter = smallTextCounter(encoding);

  it.each(SAMPLES.map((text, i) => [i, text]))('sample %i: the pieces of the split pattern, and the count of js-tiktoken', (_i, text) => {
    expect(splitPieces(text, encoding)).toEqual(regexPieces(encoding, text));
    expect(counter.count(text)).toBe(tiktoken[encoding].encode(text, [], []).length);
  });

  it('finds the same pieces as the split pattern on random text', () => {
    fc.assert(
      fc.property(fc.array(FRAGMENTS, { maxLength: 24 }), (parts) => {
        const text = parts.join('');
        expect(splitPieces(text, encoding)).toEqual(regexPieces(encoding, text));
      }),
      { numRuns: 1500 },
    );
  });

  it('counts as js-tiktoken does on random text', () => {
    fc.assert(
      fc.property(fc.array(FRAGMENTS, { maxLength: 24 }), (parts) => {
        const text = parts.join('');
        // A fresh counter each time: within its budget, so the text is split by hand.
        expect(smallTextCounter(encoding).count(text)).toBe(tiktoken[encoding].encode(text, [], []).length);
      }),
      { numRuns: 200 },
    );
  });

  it('keeps counting exactly once the texts it split by hand add up past its budget', () => {
    const fresh = smallTextCounter(encoding);
    const text = `${SAMPLES[4]}\n${SAMPLES[1]}\n${SAMPLES[2]}`;
    const expected = tiktoken[encoding].encode(text, [], []).length;
    for (let i = 0; i < Math.ceil((8 * 1024) / text.length); i++) expect(fresh.count(text)).toBe(expected);
  });

  it('hands texts past the small size to the bulk counter, with the same count', () => {
    const text = `${SAMPLES[4]}\n${SAMPLES[1]}\n`.repeat(Math.ceil((SMALL_TEXT + 1) / (SAMPLES[4].length + SAMPLES[1].length + 2)));
    expect(text.length).toBeGreaterThan(SMALL_TEXT);
    expect(counter.count(text)).toBe(tiktoken[encoding].encode(text, [], []).length);
  });
});

describe('character classes', () => {
  it('the tables (ASCII, Latin-1, punctuation, arrows and symbols, emoji) agree with the regexes on every code point they cover', () => {
    let covered = 0;
    for (let cp = 0; cp <= 0x1ffff; cp++) {
      if (cp >= 0x80 && knownClass(cp) === undefined) continue;
      covered++;
      expect([cp, classOf(cp)]).toEqual([cp, regexClass(cp)]);
    }
    expect(covered).toBeGreaterThan(3000);
  });
});
