import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import { BINARY_UNIT } from '../../helpers/arbitraries.js';
import { tiktoken } from '../../helpers/tiktoken.js';
import { loadTokenCounter, loadTokenCounterSync, tokenizerLoaded, type EncodingName } from '../../../src/kernel/tokens/index.js';

/** Plain js-tiktoken, with special-token strings treated as ordinary text. */
function expected(encoding: EncodingName, text: string): number {
  return tiktoken[encoding].encode(text, [], []).length;
}

const SAMPLES: Record<string, string> = {
  empty: '',
  prose: 'The quick brown fox jumps over the lazy dog. It\'s what they\'ve said; we\'ll see.',
  code: 'export function add(a: number, b: number): number {\n  return a + b; // sum\n}\n\tconst x = [1, 2, 3].map((n) => n ** 2);\r\n',
  markdown: '---\nname: Auth\ntags: [a, b]\n---\n\n# Title\n\n- item **bold** [link](x.md)\n\n```ts\nlet a = 1;\n```\n',
  unicode: 'Größe naïve café — 日本語のテキスト 中文 한국어 עברית العربية Ελληνικά 🙂👍🏽 👨‍👩‍👧 e\u0301 ﬁ',
  whitespace: `a${' '.repeat(300)}b\n\n\n\n${'\t'.repeat(70)}\n   \r\n\r\n  x  \n`,
  specials: 'before <|endoftext|> middle <|endofprompt|><|fim_prefix|><|im_start|>user\n<|endoftext|>',
  numbers: '1234567890 3.14159 1,000,000 0x1F 2026-11-21T15:30:12Z',
  surrogates: 'lone \uD800 high and \uDC00 low, pair \uD83D\uDE00',
  longRuns: `${'a'.repeat(2000)} ${'='.repeat(500)} ${'ab'.repeat(400)} ${'Ж'.repeat(300)} ${'🙂'.repeat(100)}`,
  base64: 'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5ejAxMjM0NTY3ODkrLw=='.repeat(20),
  contractions: "I'M YOU'RE he's THEY'LL we'd She'S don't",
};

describe.each(['o200k_base', 'cl100k_base'] as const)('token counts (%s)', (encoding) => {
  const counter = loadTokenCounterSync(encoding);

  it.each(Object.entries(SAMPLES))('%s matches plain js-tiktoken', (_name, text) => {
    expect(counter.count(text)).toBe(expected(encoding, text));
  });

  it('counts the same text the same way twice (the piece cache changes nothing)', () => {
    const text = SAMPLES.markdown + SAMPLES.unicode;
    expect(counter.count(text)).toBe(counter.count(text));
  });

  it('matches js-tiktoken on random text built from tricky fragments', () => {
    const fragment = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 12 }),
      fc.string({ unit: BINARY_UNIT, maxLength: 12 }),
      fc.constantFrom(' ', '  ', '\n', '\r\n', '\t', "'s", "'LL", '<|endoftext|>', '```', '//', '/', '123', '4567', 'é', '🙂', '日本'),
      fc.stringMatching(/^[a-zA-Z]{1,150}$/),
      fc.stringMatching(/^[ \n\t]{1,80}$/),
      fc.stringMatching(/^[=\-*#.]{1,90}$/),
    );
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 30 }), (parts) => {
        const text = parts.join('');
        expect(counter.count(text)).toBe(expected(encoding, text));
      }),
      { numRuns: 300 },
    );
  });
});

describe('loading', () => {
  it('keeps the async signature other modules use', async () => {
    const counter = await loadTokenCounter('cl100k_base');
    expect(counter.encoding).toBe('cl100k_base');
    expect(counter.count('hello world')).toBe(2);
    expect(tokenizerLoaded()).toBe(true);
  });

  it('defaults to o200k_base', async () => {
    expect((await loadTokenCounter()).encoding).toBe('o200k_base');
  });
});

describe('the yardstick (test/helpers/tiktoken.ts) remembers pieces', () => {
  it.each(['o200k_base', 'cl100k_base'] as const)('%s: the same tokens as js-tiktoken encoding the whole text, twice over', (encoding) => {
    const encoder = tiktoken[encoding];
    const plain = (text: string) => Tiktoken.prototype.encode.call(encoder, text, [], []);
    // Not longRuns: js-tiktoken alone takes seconds on it (each long piece is merged in quadratic time).
    for (const text of [...Object.values(SAMPLES).filter((text) => text !== SAMPLES.longRuns), `${'x'.repeat(300)} ${SAMPLES.prose} ${'x'.repeat(300)}`]) {
      expect(encoder.encode(text, [], [])).toEqual(plain(text));
      expect(encoder.encode(text, [], [])).toEqual(plain(text));
    }
    expect(() => encoder.encode(SAMPLES.specials)).toThrow(/special token that is not allowed/);
    expect(encoder.encode(SAMPLES.specials, 'all')).toEqual(Tiktoken.prototype.encode.call(encoder, SAMPLES.specials, 'all'));
  });

  it.each(['o200k_base', 'cl100k_base'] as const)('%s: the same tokens as js-tiktoken on random text, pieces it merges itself', (encoding) => {
    const encoder = tiktoken[encoding];
    const plain = (text: string) => Tiktoken.prototype.encode.call(encoder, text, [], []);
    const fragment = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 12 }),
      fc.string({ unit: BINARY_UNIT, maxLength: 12 }),
      fc.stringMatching(/^[a-zA-Z]{1,40}$/),
      fc.constantFrom(' ', '  ', '\n', '\t', "'s", '123', 'é', '🙂', '日本', '```'),
    );
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 20 }), (parts) => {
        const text = parts.join('');
        expect(encoder.encode(text, [], [])).toEqual(plain(text));
      }),
      { numRuns: 200 },
    );
  });
});

describe('the yardstick (test/helpers/tiktoken.ts) fills its tables as js-tiktoken does', () => {
  it('cl100k_base: the same ranks for the same bytes, every token', () => {
    const tables = (encoder: Tiktoken) => (encoder as unknown as { rankMap: Map<string, number> }).rankMap;
    const own = tables(new Tiktoken(cl100k));
    // The yardstick the tests above count with (built once per worker), not a second one.
    const built = tables(tiktoken.cl100k_base);
    expect(built.size).toBe(own.size);
    expect(built.size).toBeGreaterThan(100_000);
    let differ = 0;
    for (const [bytes, rank] of own) if (built.get(bytes) !== rank) differ++;
    expect(differ).toBe(0);
  });
});
