import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cachedCounter, contentHash } from '../../../src/kernel/tokens/cache.js';
import { loadTokenCounterSync, type EncodingName, type TokenCounter } from '../../../src/kernel/tokens/count.js';
import { CountCache, readCountCache, TOKEN_COUNTS_FILE, writeCountCache } from '../../../src/kernel/state/token-counts.js';
const VERSION = '1.2.3';
import { removeDir, tempDir, stateOf } from '../../helpers/cli.js';

/** A loader that records how often the tokenizer was asked for. */
function countingLoader() {
  const loads: EncodingName[] = [];
  return { loads, load: (e: EncodingName): TokenCounter => (loads.push(e), loadTokenCounterSync(e)) };
}

describe('cachedCounter', () => {
  it('loads the tokenizer only on the first miss, and never when every count is cached', () => {
    const cache = new CountCache();
    const first = countingLoader();
    const counter = cachedCounter(cache, 'o200k_base', first.load);
    expect(counter.count('')).toBe(0);
    expect(first.loads).toEqual([]);
    expect(counter.count('hello world')).toBe(2);
    expect(counter.count('hello world')).toBe(2);
    expect(counter.count('second text')).toBe(2);
    expect(first.loads).toEqual(['o200k_base']);
    expect([counter.hits, counter.misses]).toEqual([0, 2]);

    const warm = countingLoader();
    const again = cachedCounter(cache, 'o200k_base', warm.load);
    expect(again.count('hello world')).toBe(2);
    expect(again.count('second text')).toBe(2);
    expect(warm.loads).toEqual([]);
    expect([again.hits, again.misses]).toEqual([2, 0]);
  });

  it('keys counts by encoding as well as content', () => {
    const cache = new CountCache();
    const text = 'The naïve café’s crème brûlée';
    expect(cachedCounter(cache, 'o200k_base').count(text)).toBe(loadTokenCounterSync('o200k_base').count(text));
    expect(cachedCounter(cache, 'cl100k_base').count(text)).toBe(loadTokenCounterSync('cl100k_base').count(text));
    expect(cache.size).toBe(2);
    expect(cache.get('cl100k_base', contentHash(text))).toBe(loadTokenCounterSync('cl100k_base').count(text));
  });
});

describe('seenAs', () => {
  it('answers a told count for that text only, short or long, without hashing or tokenizing it', () => {
    const { loads, load } = countingLoader();
    const counter = cachedCounter(new CountCache(), 'o200k_base', load);
    const long = 'word '.repeat(400);
    const sameLength = 'draw '.repeat(400);
    expect(counter.seenAs(long, 7)).toBe(long);
    counter.seenAs('short text', 3);
    expect([counter.count(long), counter.count('word '.repeat(399) + 'word '), counter.count('short text')]).toEqual([7, 7, 3]);
    expect(loads).toEqual([]);
    expect(counter.count(sameLength)).toBe(loadTokenCounterSync('o200k_base').count(sameLength));
    expect(counter.count('short texT')).toBe(loadTokenCounterSync('o200k_base').count('short texT'));
    expect(counter.count(long)).toBe(7);
  });
});

describe('the cache file in the state folder', () => {
  let dir = '';
  afterEach(() => removeDir(dir));

  it('round-trips, and is written only when something new was counted', async () => {
    dir = tempDir();
    writeFileSync(join(dir, 'MEMORY.md'), '# Memory\n'); // state is kept only for a memory directory with a MEMORY.md
    expect(readCountCache(dir, VERSION).status).toBe('missing');
    const { cache } = readCountCache(dir, VERSION);
    cachedCounter(cache, 'o200k_base').count('some memory text');
    expect(await writeCountCache(dir, cache, VERSION)).toBe(true);
    const again = readCountCache(dir, VERSION);
    expect(again.status).toBe('read');
    expect([again.cache.size, again.cache.get('o200k_base', contentHash('some memory text'))]).toEqual([1, 3]);
    expect(await writeCountCache(dir, again.cache, VERSION)).toBe(false);
  });

  it.each([
    ['the old JSON', '{"memctx": "1.2.3", "counts": {}}'],
    ['text', 'memctx token counts'],
    ['binary bytes', '\u0000\u0001\u00ff'],
  ])('ignores a cache file that is %s and rebuilds it', async (_what, content) => {
    dir = tempDir();
    writeFileSync(join(dir, 'MEMORY.md'), '# Memory\n');
    writeFileSync(join(stateOf(dir), TOKEN_COUNTS_FILE), content);
    const loaded = readCountCache(dir, VERSION);
    expect([loaded.status, loaded.cache.size]).toEqual(['rebuilt', 0]);
    expect(await writeCountCache(dir, loaded.cache, VERSION)).toBe(true);
    expect(readFileSync(join(stateOf(dir), TOKEN_COUNTS_FILE)).subarray(0, 22).toString('latin1')).toBe('memctx token counts 1\n');
    expect(readCountCache(dir, VERSION).status).toBe('read');
  });
});
