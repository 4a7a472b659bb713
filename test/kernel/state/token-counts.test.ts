import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stateOf, tempDir } from '../../helpers/cli.js';
import { CountCache, readCountCache, TOKEN_COUNTS_FILE, writeCountCache } from '../../../src/kernel/state/token-counts.js';
import { cachedCounter, contentHash } from '../../../src/kernel/tokens/cache.js';
import { loadTokenCounterSync } from '../../../src/kernel/tokens/count.js';

function memory(): { root: string; file: string } {
  const root = join(tempDir(), '.memory');
  mkdirSync(root);
  writeFileSync(join(root, 'MEMORY.md'), '# Memory\n');
  return { root, file: join(stateOf(root), TOKEN_COUNTS_FILE) };
}

const MAGIC = 'memctx token counts 1\n';
/** The file's records: after the magic, the head's length and checksum, and the head padded to 8 bytes. */
function records(file: string): Buffer {
  const bytes = readFileSync(file);
  const start = Math.ceil((MAGIC.length + 8 + bytes.readUInt32LE(MAGIC.length)) / 8) * 8;
  return bytes.subarray(start);
}

/** Texts of a run: `n` of them, numbered from `from`. */
const texts = (from: number, n: number) => Array.from({ length: n }, (_, i) => `note ${from + i}: the deploy runs on ${i % 7} Fridays`);
const yardstick = loadTokenCounterSync('o200k_base');

/** A made-up hash: `i` in its last 4 bytes (so hashes of increasing `i` sort as their records do). */
function hashBytes(i: number): Buffer {
  const bytes = Buffer.alloc(20);
  bytes.writeUInt32BE(i, 16);
  return bytes;
}
const hashOf = (i: number) => hashBytes(i).toString('base64url');

/** `n` sorted records as the file holds them: o200k_base (id 0), hashOf(i), count i. */
function sortedRecords(n: number): Buffer {
  const out = Buffer.alloc(n * 25);
  for (let i = 0; i < n; i++) {
    hashBytes(i).copy(out, i * 25 + 1);
    out.writeUInt32LE(i, i * 25 + 21);
  }
  return out;
}

describe('the token count cache', () => {
  it('is missing at first; saved when changed, and read back by the same version', async () => {
    const { root, file } = memory();
    const first = readCountCache(root, '1.0.0');
    expect(first.status).toBe('missing');
    expect(await writeCountCache(root, first.cache, '1.0.0')).toBe(false);
    expect(existsSync(file)).toBe(false);
    const hash = contentHash('abc');
    first.cache.set('o200k_base', hash, 12);
    expect(await writeCountCache(root, first.cache, '1.0.0')).toBe(true);
    expect(first.cache.dirty).toBe(false);
    const bytes = readFileSync(file);
    expect(bytes.subarray(0, MAGIC.length).toString('latin1')).toBe(MAGIC);
    expect(records(file)).toEqual(Buffer.concat([Buffer.from([0]), Buffer.from(hash, 'base64url'), Buffer.from([12, 0, 0, 0])]));
    const again = readCountCache(root, '1.0.0');
    expect(again.status).toBe('read');
    expect([again.cache.get('o200k_base', hash), again.cache.get('cl100k_base', hash), again.cache.size]).toEqual([12, undefined, 1]);
    expect(await writeCountCache(root, again.cache, '1.0.0')).toBe(false);
  });

  it('gives the counts of a fresh count after merge-saves over several runs, the records sorted and each once', async () => {
    const { root, file } = memory();
    const runs = [texts(0, 300), [...texts(100, 300), ...texts(0, 50)], texts(1000, 1), texts(250, 400)];
    for (const run of runs) {
      const { cache } = readCountCache(root, '1.0.0');
      const counter = cachedCounter(cache, 'o200k_base');
      for (const text of run) counter.count(text);
      cachedCounter(cache, 'cl100k_base').count(run[0]);
      await writeCountCache(root, cache, '1.0.0');
    }
    const all = [...new Set(runs.flat())];
    const { cache, status } = readCountCache(root, '1.0.0');
    expect([status, cache.size]).toEqual(['read', all.length + 4]);
    for (const text of all) expect(cache.get('o200k_base', contentHash(text))).toBe(yardstick.count(text));
    const cl100k = loadTokenCounterSync('cl100k_base');
    for (const run of runs) expect(cache.get('cl100k_base', contentHash(run[0]))).toBe(cl100k.count(run[0]));
    const body = records(file);
    const keys = Array.from({ length: body.length / 25 }, (_, i) => body.toString('latin1', i * 25, i * 25 + 21));
    expect(keys).toEqual([...new Set(keys)].sort());
  });

  it('keeps a count set again for a text it holds, and only counts it can keep', async () => {
    const { root } = memory();
    const { cache } = readCountCache(root, '1.0.0');
    cache.set('o200k_base', contentHash('a'), 1);
    cache.set('o200k_base', 'not a hash', 2);
    cache.set('o200k_base', contentHash('b'), 2 ** 32);
    await writeCountCache(root, cache, '1.0.0');
    const again = readCountCache(root, '1.0.0').cache;
    expect([again.size, again.get('o200k_base', 'not a hash')]).toEqual([1, undefined]);
    again.set('o200k_base', contentHash('a'), 5);
    expect(again.get('o200k_base', contentHash('a'))).toBe(5);
    await writeCountCache(root, again, '1.0.0');
    expect(readCountCache(root, '1.0.0').cache.get('o200k_base', contentHash('a'))).toBe(5);
  });

  it.each([
    ['another version', (b: Buffer) => b, '0.9.0'],
    ['the old JSON at the new name', () => Buffer.from('{"memctx":"1.0.0","counts":{}}\n'), '1.0.0'],
    ['a changed byte', (b: Buffer) => Buffer.from(b).fill(b[b.length - 3] ^ 1, b.length - 3, b.length - 2), '1.0.0'],
    ['cut short', (b: Buffer) => b.subarray(0, b.length - 25), '1.0.0'],
    ['empty', () => Buffer.alloc(0), '1.0.0'],
  ])('is rebuilt from a file that is %s, with the counts of a fresh count', async (_what, spoil, writtenBy) => {
    const { root, file } = memory();
    const { cache } = readCountCache(root, writtenBy);
    const run = texts(0, 20);
    for (const text of run) cachedCounter(cache, 'o200k_base').count(text);
    await writeCountCache(root, cache, writtenBy);
    writeFileSync(file, spoil(readFileSync(file)));
    const rebuilt = readCountCache(root, '1.0.0');
    expect([rebuilt.status, rebuilt.cache.size, rebuilt.cache.dirty]).toEqual(['rebuilt', 0, true]);
    const counter = cachedCounter(rebuilt.cache, 'o200k_base');
    for (const text of run) expect(counter.count(text)).toBe(yardstick.count(text));
    expect(counter.misses).toBe(run.length);
    expect(await writeCountCache(root, rebuilt.cache, '1.0.0')).toBe(true);
    const again = readCountCache(root, '1.0.0');
    expect(again.status).toBe('read');
    for (const text of run) expect(again.cache.get('o200k_base', contentHash(text))).toBe(yardstick.count(text));
  });

  it('ignores and removes token-counts.json (an older build kept the counts there) when it writes', async () => {
    const { root } = memory();
    const old = join(stateOf(root), 'token-counts.json');
    writeFileSync(old, JSON.stringify({ memctx: '1.0.0', counts: { [`o200k_base:${contentHash('a')}`]: 99 } }));
    const loaded = readCountCache(root, '1.0.0');
    expect([loaded.status, loaded.cache.get('o200k_base', contentHash('a'))]).toEqual(['missing', undefined]);
    expect(await writeCountCache(root, loaded.cache, '1.0.0')).toBe(false);
    expect(existsSync(old)).toBe(true);
    loaded.cache.set('o200k_base', contentHash('a'), 1);
    expect(await writeCountCache(root, loaded.cache, '1.0.0')).toBe(true);
    expect(existsSync(old)).toBe(false);
  });

  it('never follows a link planted at its name: not read, and replaced (not written through) on save', async () => {
    const { root, file } = memory();
    const { cache } = readCountCache(root, '1.0.0');
    cache.set('o200k_base', contentHash('a'), 1);
    await writeCountCache(root, cache, '1.0.0');
    const victim = join(tempDir(), 'victim.bin');
    writeFileSync(victim, readFileSync(file));
    const victimBytes = readFileSync(victim);
    rmSync(file);
    symlinkSync(victim, file);
    const loaded = readCountCache(root, '1.0.0');
    expect([loaded.status, loaded.cache.get('o200k_base', contentHash('a'))]).toEqual(['missing', undefined]);
    loaded.cache.set('o200k_base', contentHash('b'), 2);
    await writeCountCache(root, loaded.cache, '1.0.0');
    expect(lstatSync(file).isFile()).toBe(true);
    expect(readFileSync(victim)).toEqual(victimBytes);
    expect(readCountCache(root, '1.0.0').cache.get('o200k_base', contentHash('b'))).toBe(2);
  });

  it('past 200,000 entries, keeps only the counts read or set in this run', async () => {
    const { root } = memory();
    const cache = new CountCache(sortedRecords(200_001));
    expect(cache.get('o200k_base', hashOf(5))).toBe(5);
    expect(cache.has('o200k_base', hashOf(6))).toBe(true); // asked whether it is known: not used
    cache.set('o200k_base', hashOf(7), 70);
    cache.set('o200k_base', contentHash('new'), 7);
    await writeCountCache(root, cache, '1.0.0');
    const pruned = readCountCache(root, '1.0.0').cache;
    expect([pruned.size, pruned.get('o200k_base', hashOf(5)), pruned.get('o200k_base', hashOf(7)), pruned.get('o200k_base', contentHash('new')), pruned.get('o200k_base', hashOf(6))]).toEqual([3, 5, 70, 7, undefined]);
  });

  it('keeps every count of a memory large enough to need more than 200,000 (8 a file)', async () => {
    const { root } = memory();
    const cache = new CountCache(sortedRecords(200_001));
    cache.set('o200k_base', contentHash('new'), 7);
    await writeCountCache(root, cache, '1.0.0', 25_001);
    const kept = readCountCache(root, '1.0.0').cache;
    expect([kept.size, kept.get('o200k_base', hashOf(123)), kept.get('o200k_base', contentHash('new'))]).toEqual([200_002, 123, 7]);
    kept.set('o200k_base', contentHash('newer'), 8);
    await writeCountCache(root, kept, '1.0.0', 25_000);
    expect(readCountCache(root, '1.0.0').cache.size).toBe(3); // the two read above and the one set
  });

  it('at 200,000 entries or fewer, keeps every count', async () => {
    const { root } = memory();
    const cache = new CountCache(sortedRecords(199_999));
    cache.set('o200k_base', contentHash('new'), 7);
    await writeCountCache(root, cache, '1.0.0');
    const kept = readCountCache(root, '1.0.0').cache;
    expect([kept.size, kept.get('o200k_base', hashOf(123)), kept.get('o200k_base', hashOf(199_998)), kept.get('o200k_base', contentHash('new'))]).toEqual([200_000, 123, 199_998, 7]);
  });
});
