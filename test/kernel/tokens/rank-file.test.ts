import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import o200k from 'js-tiktoken/ranks/o200k_base';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import { afterAll, describe, expect, it } from 'vitest';
import { buildRankTable, countPieceTokens, rankOf, utf8Binary, type RankTable } from '../../../src/kernel/tokens/bpe.js';
import { loadRanks, parseRankTable, serializeRankTable } from '../../../src/kernel/tokens/rank-file.js';
import { yardstick } from '../../helpers/tiktoken.js';

const work = mkdtempSync(join(tmpdir(), 'memctx-ranks-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const same = (a: RankTable, b: RankTable) => {
  expect(Buffer.compare(Buffer.from(a.bytes), Buffer.from(b.bytes))).toBe(0);
  expect(Buffer.compare(Buffer.from(a.offsets.buffer, a.offsets.byteOffset, a.offsets.byteLength), Buffer.from(b.offsets.buffer, b.offsets.byteOffset, b.offsets.byteLength))).toBe(0);
  expect(Buffer.compare(Buffer.from(a.slots.buffer, a.slots.byteOffset, a.slots.byteLength), Buffer.from(b.slots.buffer, b.slots.byteOffset, b.slots.byteLength))).toBe(0);
  expect(a.maxTokenBytes).toBe(b.maxTokenBytes);
};

describe.each([['o200k_base', o200k], ['cl100k_base', cl100k]] as const)('rank tables (%s)', (encoding, ranks) => {
  const built = buildRankTable(ranks);

  it('finds every token at its rank, and no rank for bytes that are no token', () => {
    const tokens = ranks.bpe_ranks.split('\n').filter(Boolean).flatMap((line) => {
      const [, first, ...rest] = line.split(' ');
      return rest.map((b64, i) => [atob(b64), Number(first) + i] as const);
    });
    expect(built.offsets.length - 1).toBe(tokens.length);
    for (const [token, rank] of tokens) if (rankOf(built, token, 0, token.length) !== rank) throw new Error(`rank ${rank} not found`);
    // A token looked up inside a longer string, by range.
    const [token, rank] = tokens[5000];
    expect(rankOf(built, `xx${token}yy`, 2, 2 + token.length)).toBe(rank);
    expect(rankOf(built, utf8Binary('qzqzqzqzqzqzqzqzqzqzqzqz'), 0, 24)).toBe(-1);
  });

  it('reads back what it writes, and the build wrote the same table beside the built module', () => {
    const data = serializeRankTable(built, encoding, ranks.pat_str);
    const parsed = parseRankTable(data, encoding)!;
    same(parsed.table, built);
    expect(parsed.patStr).toBe(ranks.pat_str);
    // `npm run build` writes the file (scripts/build-ranks.mjs); `npm test` builds first.
    const loaded = loadRanks(encoding);
    expect(loaded.source).toBe('file');
    same(loaded.table, built);
    expect(loaded.patStr).toBe(ranks.pat_str);
  });

  it('counts pieces as js-tiktoken does with a table read from a file', () => {
    const table = parseRankTable(serializeRankTable(built, encoding, ranks.pat_str), encoding)!.table;
    const tiktoken = yardstick(ranks);
    for (const piece of ['hello', ' world', 'Größe', '日本語', '🙂👍🏽', '='.repeat(300), 'ab'.repeat(200), "'ll", '\n\n\n']) {
      expect(countPieceTokens(utf8Binary(piece), table)).toBe(tiktoken.encode(piece, [], []).length);
    }
  });

  it('ignores a file that is damaged, for another encoding or for another js-tiktoken, and builds the table instead', () => {
    const data = serializeRankTable(built, encoding, ranks.pat_str);
    const other = encoding === 'o200k_base' ? 'cl100k_base' : 'o200k_base';
    expect(parseRankTable(data, other)).toBeUndefined();
    expect(parseRankTable(data, encoding, '0.0.1 123')).toBeUndefined();
    expect(parseRankTable(data.subarray(0, data.length - 1), encoding)).toBeUndefined();
    expect(parseRankTable(Buffer.from('not a table'), encoding)).toBeUndefined();
    expect(parseRankTable(Buffer.alloc(0), encoding)).toBeUndefined();
    const header = data.subarray(0, data.indexOf(10)).toString();
    expect(parseRankTable(Buffer.concat([Buffer.from(header.replace('"magic":"memctx-ranks/1"', '"magic":"other"')), data.subarray(data.indexOf(10))]), encoding)).toBeUndefined();
    const broken = join(work, `${encoding}.ranks`);
    writeFileSync(broken, data.subarray(0, 1000));
    const loaded = loadRanks(encoding, [pathToFileURL(broken), pathToFileURL(join(work, 'missing.ranks'))]);
    expect(loaded.source).toBe('js-tiktoken');
    same(loaded.table, built);
  });

  it('reads a file written with its arrays out of 4-byte alignment (a pooled Buffer)', () => {
    const data = serializeRankTable(built, encoding, ranks.pat_str);
    const shifted = Buffer.alloc(data.length + 1);
    data.copy(shifted, 1);
    same(parseRankTable(shifted.subarray(1), encoding)!.table, built);
  });
});
