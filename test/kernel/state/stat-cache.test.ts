// state/stat-cache.ts: the stat-keyed cache every scan shares (scan-cache.test.ts and rank/cache.test.ts hold its users).
import type { Stats } from 'node:fs';
import { lstatSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheVersion, codeHash, keyOf, scanWithCache, type Projection } from '../../../src/kernel/state/stat-cache.js';
import { decodeTable, encodeTable } from '../../../src/kernel/state/table.js';
import { listEntries } from '../../../src/kernel/store/list.js';
import { readMemoryFile } from '../../../src/kernel/store/scan.js';
import { stateOf, tempDir } from '../../helpers/cli.js';

describe('keyOf', () => {
  it('size, mtime, ctime and inode; racy when changed in the last two seconds', () => {
    const st = { size: 10, mtimeMs: 1000, ctimeMs: 1500, ino: 7 } as Stats;
    expect(keyOf(st, 3499)).toEqual({ key: '10:1000:1500:7', racy: true });
    expect(keyOf(st, 3500)).toEqual({ key: '10:1000:1500:7', racy: false });
  });
});

describe('codeHash', () => {
  it('changes with the code of store/, state/, text/, lint/ and bundle/ (subfolders included), not with declarations or other files', () => {
    const kernel = tempDir();
    for (const dir of ['store', 'state', 'text', 'lint/rules', 'bundle', 'tokens']) mkdirSync(join(kernel, dir), { recursive: true });
    writeFileSync(join(kernel, 'lint/rules/a.js'), 'one');
    const first = codeHash(kernel);
    expect(first).toMatch(/^[0-9a-f]{12}$/);
    writeFileSync(join(kernel, 'store/x.d.ts'), 'declare const x: 1;');
    writeFileSync(join(kernel, 'tokens/b.js'), 'other');
    writeFileSync(join(kernel, 'text/notes.md'), 'prose');
    expect(codeHash(kernel)).toBe(first);
    writeFileSync(join(kernel, 'lint/rules/a.js'), 'two');
    const second = codeHash(kernel);
    expect(second).not.toBe(first);
    // The renderers decide the byte counts the pack cache keeps.
    writeFileSync(join(kernel, 'bundle/render.js'), 'fence');
    expect(codeHash(kernel)).not.toBe(second);
  });
});

describe('scanWithCache', () => {
  const PAST = new Date('2026-01-01T00:00:00Z');
  const names: Projection<string> = { file: 'test-cache.json', project: (file) => file.name, valid: (value): value is string => typeof value === 'string' };

  function memoryDir(): string {
    const root = join(tempDir(), '.memory');
    mkdirSync(root);
    for (const [path, name] of [['a.md', 'A'], ['b.md', 'B']]) {
      writeFileSync(join(root, path), `---\nname: ${name}\n---\n`);
      utimesSync(join(root, path), PAST, PAST);
    }
    writeFileSync(join(root, 'bad.md'), '---\nname: [unclosed\n---\n');
    utimesSync(join(root, 'bad.md'), PAST, PAST);
    writeFileSync(join(root, 'MEMORY.md'), '# Memory\n'); // a memory directory has state only once it has its index
    return root;
  }

  async function scan(root: string, now = Date.now() + 10_000) {
    const reads: string[] = [];
    const reader = () => (path: string, symlink: boolean, detail: object) => (reads.push(path), readMemoryFile(root, path, { symlink, detail }));
    const result = await scanWithCache(root, listEntries(root), names, { now, reader });
    return { result, reads: reads.sort() };
  }

  it('reads every file once, keeps the projections and problems, and on the next run reads nothing unchanged', async () => {
    const root = memoryDir();
    const first = await scan(root);
    expect([first.result.status, first.reads, first.result.values, first.result.problems.map((p) => p.path)]).toEqual(['missing', ['a.md', 'b.md', 'bad.md'], [{ path: 'a.md', value: 'A' }, { path: 'b.md', value: 'B' }], ['bad.md']]);
    await first.result.save();
    const second = await scan(root);
    expect([second.result.status, second.reads, second.result.values.map((v) => v.value), second.result.problems.map((p) => p.path)]).toEqual(['read', [], ['A', 'B'], ['bad.md']]);
    writeFileSync(join(root, 'b.md'), '---\nname: Bee\n---\n');
    utimesSync(join(root, 'b.md'), PAST, PAST);
    const third = await scan(root);
    expect([third.reads, third.result.values.map((v) => v.value)]).toEqual([['b.md'], ['A', 'Bee']]);
  });

  it('a file changed in the last two seconds is read but not kept', async () => {
    const root = memoryDir();
    const now = Date.now() + 10_000;
    writeFileSync(join(root, 'a.md'), '---\nname: Fresh\n---\n');
    utimesSync(join(root, 'a.md'), new Date(now - 1000), new Date(now - 1000));
    await (await scan(root, now)).result.save();
    const again = await scan(root, now);
    expect(again.reads).toEqual(['a.md']);
    expect(again.result.values.map((v) => v.value)).toEqual(['Fresh', 'B']);
  });

  it('a corrupt cache, one from another build or an entry of the wrong shape is rebuilt, never trusted', async () => {
    const root = memoryDir();
    await (await scan(root)).result.save();
    const path = join(stateOf(root), 'test-cache.json');
    const saved = JSON.parse(readFileSync(path, 'utf8'));
    writeFileSync(path, '{ not json');
    expect(await scan(root)).toMatchObject({ result: { status: 'rebuilt' }, reads: ['a.md', 'b.md', 'bad.md'] });
    writeFileSync(path, JSON.stringify({ ...saved, version: 'other' }));
    expect((await scan(root)).result.status).toBe('rebuilt');
    writeFileSync(path, JSON.stringify({ ...saved, records: { ...saved.records, 'a.md': { ...saved.records['a.md'], value: 42 } } }));
    const wrong = await scan(root);
    expect([wrong.result.status, wrong.reads, wrong.result.values.map((v) => v.value)]).toEqual(['read', ['a.md'], ['A', 'B']]);
  });

  describe('with a row codec', () => {
    // A value { name, size } as the row [name, size].
    type Named = { name: string; size: number };
    const rows: Projection<Named> = {
      file: 'rows-cache.bin',
      project: (file) => ({ name: file.name, size: file.body.length }),
      valid: (value): value is Named => typeof (value as Named | undefined)?.name === 'string' && typeof (value as Named).size === 'number',
      rows: { toRow: (value) => [value.name, value.size], fromRow: (row, at) => (row.length === at + 2 ? { name: row[at], size: row[at + 1] } : undefined) },
    };
    const path = (root: string) => join(stateOf(root), 'rows-cache.bin');

    async function scanRows(root: string) {
      const reads: string[] = [];
      const reader = () => (p: string, symlink: boolean, detail: object) => (reads.push(p), readMemoryFile(root, p, { symlink, detail }));
      const result = await scanWithCache(root, listEntries(root), rows, { now: Date.now() + 10_000, reader });
      return { status: result.status, reads: reads.sort(), values: result.values.map((v) => v.value.name), problems: result.problems.map((p) => p.path), result };
    }

    it('keeps each value as a row (its path, its stat and its fields) and each problem as a record, and the next run reads nothing', async () => {
      const root = memoryDir();
      await (await scanRows(root)).result.save();
      const saved = decodeTable(readFileSync(path(root)), cacheVersion())!;
      const stat = (name: string) => {
        const st = lstatSync(join(root, name));
        return [st.size, st.mtimeMs, st.ctimeMs, st.ino];
      };
      expect(saved.rows.sort()).toEqual([['a.md', ...stat('a.md'), 'A', 0], ['b.md', ...stat('b.md'), 'B', 0]]);
      expect(Object.keys(saved.records)).toEqual(['bad.md']);
      const warm = await scanRows(root);
      expect([warm.status, warm.reads, warm.values, warm.problems]).toEqual(['read', [], ['A', 'B'], ['bad.md']]);
      // Nothing changed: the file is not written again (a write replaces it: another inode).
      const before = statSync(path(root)).ino;
      await warm.result.save();
      expect(statSync(path(root)).ino).toBe(before);
    });

    it('a truncated or changed file, one from another build or in JSON, and a link at its name are ignored and rebuilt; a malformed row is read again', async () => {
      const root = memoryDir();
      await (await scanRows(root)).result.save();
      const bytes = readFileSync(path(root));
      const saved = decodeTable(bytes, cacheVersion())!;
      const all = ['a.md', 'b.md', 'bad.md'];
      writeFileSync(path(root), bytes.subarray(0, Math.floor(bytes.length / 2)));
      expect(await scanRows(root)).toMatchObject({ status: 'rebuilt', reads: all });
      const changed = Buffer.from(bytes);
      changed[changed.length - 1] ^= 1;
      writeFileSync(path(root), changed);
      expect(await scanRows(root)).toMatchObject({ status: 'rebuilt', reads: all });
      writeFileSync(path(root), encodeTable('other', saved.records, saved.rows));
      expect(await scanRows(root)).toMatchObject({ status: 'rebuilt', reads: all });
      writeFileSync(path(root), JSON.stringify({ version: cacheVersion(), records: saved.records, rows: saved.rows }));
      expect(await scanRows(root)).toMatchObject({ status: 'rebuilt', reads: all });
      const spoiled = saved.rows.map((row) => (row[0] === 'a.md' ? [...row, 'extra'] : row[0] === 'b.md' ? [...row.slice(0, 5), 'B', 'not a size'] : row));
      writeFileSync(path(root), encodeTable(cacheVersion(), saved.records, [...spoiled, [5, 1, 2, 3, 4, 'X', 1]]));
      const wrong = await scanRows(root);
      expect([wrong.status, wrong.reads, wrong.values]).toEqual(['read', ['a.md', 'b.md'], ['A', 'B']]);
      // A link at the cache's name is never followed (its target is a valid cache) and is replaced when written.
      const elsewhere = join(tempDir(), 'planted.bin');
      writeFileSync(elsewhere, bytes);
      rmSync(path(root));
      symlinkSync(elsewhere, path(root));
      const linked = await scanRows(root);
      expect([linked.status, linked.reads]).toEqual(['missing', all]);
      await linked.result.save();
      expect(lstatSync(path(root)).isSymbolicLink()).toBe(false);
      expect(readFileSync(elsewhere)).toEqual(bytes);
    });

    it('finds the rows of files listed in another order than they were written, and of files added between them', async () => {
      const root = memoryDir();
      await (await scanRows(root)).result.save();
      const saved = decodeTable(readFileSync(path(root)), cacheVersion())!;
      writeFileSync(path(root), encodeTable(cacheVersion(), saved.records, [...saved.rows].reverse()));
      writeFileSync(join(root, 'aa.md'), '---\nname: AA\n---\n');
      utimesSync(join(root, 'aa.md'), PAST, PAST);
      const warm = await scanRows(root);
      expect([warm.status, warm.reads, warm.values]).toEqual(['read', ['aa.md'], ['A', 'AA', 'B']]);
    });
  });
});
