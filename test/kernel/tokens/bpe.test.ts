import o200k from 'js-tiktoken/ranks/o200k_base';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { FIXTURES } from '../../helpers/cli.js';
import { yardstick } from '../../helpers/tiktoken.js';
import { describe, expect, it } from 'vitest';
import { buildRankTable, countPieceTokens, utf8Binary } from '../../../src/kernel/tokens/bpe.js';
import { loadTokenCounter } from '../../../src/kernel/tokens/index.js';

describe('long pieces are counted exactly as js-tiktoken counts them', () => {
  for (const [name, ranks] of [['o200k_base', o200k], ['cl100k_base', cl100k]] as const) {
    const tiktoken = yardstick(ranks);
    const table = buildRankTable(ranks);
    const long = (piece: string) => countPieceTokens(utf8Binary(piece), table);
    const pattern = new RegExp(ranks.pat_str, 'gu');
    it(`${name}: the pieces of random text from small alphabets`, () => {
      const alphabet = fc.constantFrom('a', 'b', 'e', 'é', 'ß', 'x', 'Q', '中', '=', ' ', '-', '0');
      fc.assert(
        fc.property(fc.array(alphabet, { minLength: 2, maxLength: 250 }), (chars) => {
          for (const [piece] of chars.join('').matchAll(pattern)) expect(long(piece)).toBe(tiktoken.encode(piece, [], []).length);
        }),
        { numRuns: 120, seed: 7 },
      );
    });
    it(`${name}: long single pieces of letters, where the merges run in rank buckets`, () => {
      const letter = fc.constantFrom('a', 'a', 'a', 'b', 'e', 'n', 'r', 's', 't', 'é', 'ö', 'ß');
      fc.assert(
        fc.property(fc.array(letter, { minLength: 65, maxLength: 1200 }), (chars) => {
          const piece = chars.join('');
          expect(long(piece)).toBe(tiktoken.encode(piece, [], []).length);
        }),
        { numRuns: 25, seed: 3 },
      );
    });
    it(`${name}: runs of one character and pieces that are one token`, () => {
      for (const piece of ['a'.repeat(1000), '='.repeat(700), ' '.repeat(333), 'ab'.repeat(400), '中'.repeat(200), '----------------', 'é'.repeat(300), 'aab'.repeat(300), '0'.repeat(3)]) {
        expect(long(piece)).toBe(tiktoken.encode(piece, [], []).length);
      }
    });
  }
  it('the counter gives the same totals as js-tiktoken on random mixed text, for both encodings', async () => {
    const parts = fc.constantFrom('the', ' The', 'ünïcode', ' 12345', '\n\n', '  ', '\t', "don't", 'DON\'T', '{"a":1}', '=>', '...', '中文字', '😀', 'ß', '\r\n', 'x'.repeat(70), ' '.repeat(9), '<|endoftext|>', '#', 'ab12cd', 'Δ');
    for (const [encoding, ranks] of [['o200k_base', o200k], ['cl100k_base', cl100k]] as const) {
      const counter = await loadTokenCounter(encoding);
      const tiktoken = yardstick(ranks);
      fc.assert(
        fc.property(fc.array(parts, { maxLength: 60 }), (list) => {
          const text = list.join('');
          expect(counter.count(text)).toBe(tiktoken.encode(text, [], []).length);
        }),
        { numRuns: 200, seed: 11 },
      );
    }
  });
  // One test per fixture (the real transcripts are up to 600 KB each): no test near the per-test limit.
  const names = readdirSync(join(FIXTURES, 'transcripts'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(join(FIXTURES, 'transcripts'), join(entry.parentPath, entry.name)))
    .sort();
  it('finds the transcript fixtures', () => expect(names.length).toBeGreaterThan(10));
  it.each(names)('the counter gives the same total as js-tiktoken on the transcript fixture %s', async (name) => {
    const counter = await loadTokenCounter('o200k_base');
    const text = readFileSync(join(FIXTURES, 'transcripts', name), 'utf8');
    expect(counter.count(text)).toBe(yardstick(o200k).encode(text, [], []).length);
  });
  it('the counter gives the same totals as js-tiktoken on text with long runs', async () => {
    const counter = await loadTokenCounter('o200k_base');
    const tiktoken = yardstick(o200k);
    const text = `header\n${'x'.repeat(900)} and ${'Ab'.repeat(300)}\n${'='.repeat(500)}\n${'+/'.repeat(200)}QUJD${'9'.repeat(50)} <|endoftext|> done`;
    expect(counter.count(text)).toBe(tiktoken.encode(text, [], []).length);
  });
});
