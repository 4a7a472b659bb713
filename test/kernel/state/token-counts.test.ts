import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stateOf, tempDir } from '../../helpers/cli.js';
import { readCountCache, writeCountCache } from '../../../src/kernel/state/token-counts.js';
import { CountCache } from '../../../src/kernel/tokens/cache.js';

function memory(): { root: string; file: string } {
  const root = join(tempDir(), '.memory');
  mkdirSync(root);
  writeFileSync(join(root, 'MEMORY.md'), '# Memory\n');
  return { root, file: join(stateOf(root), 'token-counts.json') };
}

describe('the token count cache', () => {
  it('is missing at first; saved when changed, and read back by the same version', async () => {
    const { root, file } = memory();
    const first = readCountCache(root, '1.0.0');
    expect(first.status).toBe('missing');
    expect(await writeCountCache(root, first.cache, '1.0.0')).toBe(false);
    first.cache.set('o200k_base:abc', 12);
    expect(await writeCountCache(root, first.cache, '1.0.0')).toBe(true);
    expect(first.cache.dirty).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe('{"memctx":"1.0.0","counts":{"o200k_base:abc":12}}\n');
    const again = readCountCache(root, '1.0.0');
    expect(again.status).toBe('read');
    expect(again.cache.get('o200k_base:abc')).toBe(12);
  });

  it("is rebuilt from another version's file or a corrupt one, keeping only whole counts", async () => {
    const { root, file } = memory();
    writeFileSync(file, '{"memctx":"0.9.0","counts":{"k":1}}');
    const outdated = readCountCache(root, '1.0.0');
    expect([outdated.status, outdated.cache.entries.size, outdated.cache.dirty]).toEqual(['rebuilt', 0, true]);
    expect(await writeCountCache(root, outdated.cache, '1.0.0')).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe('{"memctx":"1.0.0","counts":{}}\n');
    writeFileSync(file, '{ broken');
    expect(readCountCache(root, '1.0.0').status).toBe('rebuilt');
    writeFileSync(file, JSON.stringify({ memctx: '1.0.0', counts: { a: 3, b: -1, c: 1.5, d: '4' } }));
    expect([...readCountCache(root, '1.0.0').cache.entries]).toEqual([['a', 3]]);
  });

  it('past 200,000 entries, keeps only the counts used in this run', async () => {
    const { root, file } = memory();
    const cache = new CountCache(new Map(Array.from({ length: 200_001 }, (_, i) => [`k${i}`, i])));
    cache.get('k5');
    cache.set('new', 7);
    await writeCountCache(root, cache, '1.0.0');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ memctx: '1.0.0', counts: { k5: 5, new: 7 } });
  });
});
