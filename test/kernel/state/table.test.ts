// state/table.ts: a stat cache's rows as bytes (stat-cache.test.ts holds the cache that reads and writes them).
import { describe, expect, it } from 'vitest';
import { decodeTable, encodeTable } from '../../../src/kernel/state/table.js';

const ROWS = [
  ['a.md', 1, 2.5, -3, -0, 2 ** 31, 1795920732334.5952, 'name', null, true, false, undefined, [], ['x', 'y'], [291, 2673], ['id', false], 0],
  ['sub/é.md', 7, 'déjà vu 😀', [[1, [2]]], ''],
];

describe('encodeTable and decodeTable', () => {
  it('give back the version, the records and every row as it was (numbers exact, undefined and null apart)', () => {
    const records = { 'bad.md': { key: '1:2:3:4', problem: { line: 2, message: 'bad' } } };
    const bytes = encodeTable('v1', records, ROWS);
    expect(bytes.subarray(0, 20).toString('latin1')).toBe('memctx stat cache 1\n');
    expect(decodeTable(bytes, 'v1')).toStrictEqual({ records, rows: ROWS });
    expect(decodeTable(encodeTable('v1', {}, []), 'v1')).toStrictEqual({ records: {}, rows: [] });
  });

  it('gives back 3,000 rows holding every kind of value, nested lists included', () => {
    const rows = Array.from({ length: 3000 }, (_, i) => [`n${i}.md`, i, i + 0.5, `name ${i}`, [i, `t${i}`, [true, null]], undefined, -i]);
    expect(decodeTable(encodeTable('v1', {}, rows), 'v1')?.rows).toStrictEqual(rows);
  });

  it('keeps a string that is not well formed (a lone surrogate) as it was', () => {
    const rows = [['a.md', 'half \ud800 pair', 'ascii']];
    expect(decodeTable(encodeTable('v1', {}, rows), 'v1')?.rows).toStrictEqual(rows);
  });

  it('reads ASCII text back through the fast path and other text as UTF-8, the same values either way', () => {
    const ascii = encodeTable('v1', {}, [['a.md', 'plain']]);
    const utf8 = encodeTable('v1', {}, [['a.md', 'plaîn']]);
    expect(ascii.toString('latin1')).toContain('"encoding":"latin1"');
    expect(utf8.toString('latin1')).toContain('"encoding":"utf8"');
    expect([decodeTable(ascii, 'v1')?.rows, decodeTable(utf8, 'v1')?.rows]).toStrictEqual([[['a.md', 'plain']], [['a.md', 'plaîn']]]);
  });

  it('refuses a value it cannot keep (an object, a function)', () => {
    expect(() => encodeTable('v1', {}, [['a.md', { a: 1 }]])).toThrow(/cannot keep \(object\)/);
    expect(() => encodeTable('v1', {}, [['a.md', () => 1]])).toThrow(/cannot keep \(function\)/);
  });

  it('trusts nothing of another build, another format, a file cut short, a changed byte or bytes added', () => {
    const bytes = encodeTable('v1', {}, ROWS);
    expect(decodeTable(bytes, 'v2')).toBeUndefined();
    expect(decodeTable(Buffer.from('{"version":"v1","records":{},"rows":[]}'), 'v1')).toBeUndefined();
    expect(decodeTable(Buffer.alloc(0), 'v1')).toBeUndefined();
    for (let cut = 1; cut < bytes.length; cut += 7) expect(decodeTable(bytes.subarray(0, cut), 'v1')).toBeUndefined();
    for (let at = 20; at < bytes.length; at += 5) {
      const changed = Buffer.from(bytes);
      changed[at] ^= 0x10;
      expect(decodeTable(changed, 'v1')).toBeUndefined();
    }
    expect(decodeTable(Buffer.concat([bytes, Buffer.from([0])]), 'v1')).toBeUndefined();
  });

  it('reads a file at any offset in its buffer (a pooled read)', () => {
    const bytes = encodeTable('v1', {}, ROWS);
    const pooled = Buffer.concat([Buffer.from('xyz'), bytes]).subarray(3);
    expect(decodeTable(pooled, 'v1')?.rows).toStrictEqual(ROWS);
  });
});
