// Drift's git logs kept between runs (kernel/state/history-cache.ts).
import { closeSync, lstatSync, mkdirSync, readdirSync, readFileSync, readSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
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
  it('keeps the logs a run used for the next run; a run that asks git for a new one drops the logs it did not use', async () => {
    const root = memoryDir();
    const first = historyCache(root);
    expect(first.get('a ^b')).toBeUndefined();
    first.set('a ^b', 'LOG1');
    first.set('renames h1', 'MOVES1');
    await first.save();
    expect(JSON.parse(readFileSync(join(stateOf(root), 'drift-history.json'), 'utf8'))).toEqual({ version: VERSION, logs: { 'a ^b': 'LOG1', 'renames h1': 'MOVES1' } });
    // a run at the same HEAD reads both, and writes nothing
    const second = historyCache(root);
    expect([second.get('a ^b'), second.get('renames h1'), second.get('c ^b')]).toEqual(['LOG1', 'MOVES1', undefined]);
    second.set('c ^b', 'LOG2');
    await second.save();
    expect(JSON.parse(readFileSync(join(stateOf(root), 'drift-history.json'), 'utf8')).logs).toEqual({ 'a ^b': 'LOG1', 'renames h1': 'MOVES1', 'c ^b': 'LOG2' });
    // a run that used only the new range keeps only it
    const third = historyCache(root);
    expect(third.get('c ^b')).toBe('LOG2');
    third.set('renames h2', 'MOVES2');
    await third.save();
    const fourth = historyCache(root);
    expect([fourth.get('a ^b'), fourth.get('renames h1'), fourth.get('c ^b'), fourth.get('renames h2')]).toEqual([undefined, undefined, 'LOG2', 'MOVES2']);
  });

  it("ignores another version's file, a corrupt one and a link at its name (replaced, never followed)", async () => {
    const root = memoryDir();
    const file = join(stateOf(root), 'drift-history.json');
    writeFileSync(file, JSON.stringify({ version: '0.0.0-other', logs: { 'a ^b': 'OLD' } }));
    expect(historyCache(root).get('a ^b')).toBeUndefined();
    // the one-log file of earlier builds is not read
    writeFileSync(file, JSON.stringify({ version: VERSION, range: 'a ^b', log: 'OLD' }));
    expect(historyCache(root).get('a ^b')).toBeUndefined();
    writeFileSync(file, '{not json');
    expect(historyCache(root).get('a ^b')).toBeUndefined();
    const elsewhere = join(tempDir('memctx-history-out-'), 'target.json');
    writeFileSync(elsewhere, JSON.stringify({ version: VERSION, logs: { 'a ^b': 'PLANTED' } }));
    const { rmSync } = await import('node:fs');
    rmSync(file);
    symlinkSync(elsewhere, file);
    const cache = historyCache(root);
    expect(cache.get('a ^b')).toBeUndefined();
    cache.set('a ^b', 'REAL');
    await cache.save();
    expect([lstatSync(file).isSymbolicLink(), JSON.parse(readFileSync(elsewhere, 'utf8')).logs['a ^b']]).toEqual([false, 'PLANTED']);
  });

  it('writes nothing when nothing new was set', async () => {
    const root = memoryDir();
    const cache = historyCache(root);
    expect(cache.get('a ^b')).toBeUndefined();
    await cache.save();
    expect(() => lstatSync(join(stateOf(root), 'drift-history.json'))).toThrow();
  });

  it('scratch: a file with no name in the state folder, open for reading and writing; none without a state folder', () => {
    const root = memoryDir();
    const fd = historyCache(root).scratch()!;
    expect(readdirSync(stateOf(root))).toEqual([]);
    writeSync(fd, 'a log');
    const back = Buffer.alloc(5);
    expect(readSync(fd, back, 0, 5, 0)).toBe(5);
    expect(back.toString()).toBe('a log');
    closeSync(fd);
    // a memory folder without MEMORY.md has no state folder
    expect(historyCache(join(tempDir(), '.memory')).scratch()).toBeUndefined();
  });
});
