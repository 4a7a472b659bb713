// Drift's git log kept between runs (kernel/state/history-cache.ts).
import { lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { historyCache } from '../../../src/kernel/state/history-cache.js';
import { VERSION } from '../../../src/kernel/version.js';
import { removeTempDirs, stateOf, tempDir } from '../../helpers/cli.js';

afterAll(() => removeTempDirs());

function memoryDir(): string {
  const root = join(tempDir('memctx-history-'), '.memory');
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'MEMORY.md'), '# Memory\n');
  return root;
}

describe('historyCache', () => {
  it('keeps the last range and its log for the next run; another range replaces it', async () => {
    const root = memoryDir();
    const first = historyCache(root);
    expect(first.get('a ^b')).toBeUndefined();
    first.set('a ^b', 'LOG1');
    await first.save();
    expect(JSON.parse(readFileSync(join(stateOf(root), 'drift-history.json'), 'utf8'))).toEqual({ version: VERSION, range: 'a ^b', log: 'LOG1' });
    const second = historyCache(root);
    expect([second.get('a ^b'), second.get('c ^b')]).toEqual(['LOG1', undefined]);
    second.set('c ^b', 'LOG2');
    await second.save();
    expect([historyCache(root).get('a ^b'), historyCache(root).get('c ^b')]).toEqual([undefined, 'LOG2']);
  });

  it("ignores another version's file, a corrupt one and a link at its name (replaced, never followed)", async () => {
    const root = memoryDir();
    const file = join(stateOf(root), 'drift-history.json');
    writeFileSync(file, JSON.stringify({ version: '0.0.0-other', range: 'a ^b', log: 'OLD' }));
    expect(historyCache(root).get('a ^b')).toBeUndefined();
    writeFileSync(file, '{not json');
    expect(historyCache(root).get('a ^b')).toBeUndefined();
    const elsewhere = join(tempDir('memctx-history-out-'), 'target.json');
    writeFileSync(elsewhere, JSON.stringify({ version: VERSION, range: 'a ^b', log: 'PLANTED' }));
    const { rmSync } = await import('node:fs');
    rmSync(file);
    symlinkSync(elsewhere, file);
    const cache = historyCache(root);
    expect(cache.get('a ^b')).toBeUndefined();
    cache.set('a ^b', 'REAL');
    await cache.save();
    expect([lstatSync(file).isSymbolicLink(), JSON.parse(readFileSync(elsewhere, 'utf8')).log]).toEqual([false, 'PLANTED']);
  });

  it('writes nothing when nothing new was set', async () => {
    const root = memoryDir();
    const cache = historyCache(root);
    expect(cache.get('a ^b')).toBeUndefined();
    await cache.save();
    expect(() => lstatSync(join(stateOf(root), 'drift-history.json'))).toThrow();
  });
});
