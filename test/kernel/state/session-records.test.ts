import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stateOf, tempDir } from '../../helpers/cli.js';
import { readSessionRecords, writeSessionRecord } from '../../../src/kernel/state/session-records.js';

const valid = (entry: Record<string, unknown>) => (typeof entry.n === 'number' ? { n: entry.n } : undefined);

function memory(): { root: string; state: string } {
  const root = join(tempDir(), '.memory');
  mkdirSync(root);
  writeFileSync(join(root, 'MEMORY.md'), '# Memory\n');
  return { root, state: stateOf(root) };
}

describe('readSessionRecords', () => {
  it('keeps the records that pass the check; a missing folder, file or sessions map reads as none', () => {
    const { state } = memory();
    expect(readSessionRecords(undefined, 'x.json', valid)).toEqual({});
    expect(readSessionRecords(state, 'x.json', valid)).toEqual({});
    writeFileSync(join(state, 'x.json'), JSON.stringify({ sessions: [1, 2] }));
    expect(readSessionRecords(state, 'x.json', valid)).toEqual({});
    writeFileSync(join(state, 'x.json'), '{"sessions":{"a":{"n":1},"b":{"n":"two"},"c":3,"__proto__":{"n":4}}}');
    const records = readSessionRecords(state, 'x.json', valid);
    // A session named __proto__ is a record like any other: the map has no prototype to reach.
    expect(Object.getPrototypeOf(records)).toBeNull();
    expect(Object.entries(records)).toEqual([['a', { n: 1 }], ['__proto__', { n: 4 }]]);
    expect(({} as { n?: number }).n).toBeUndefined();
  });
});

describe('writeSessionRecord', () => {
  it('writes a record as the newest, skips one that is unchanged, and drops records that fail the check', async () => {
    const { root, state } = memory();
    writeFileSync(join(state, 'x.json'), JSON.stringify({ sessions: { a: { n: 1 }, bad: { n: 'x' }, b: { n: 2 } } }));
    const options = { valid, unchanged: (old: { n: number }) => old.n === 1 };
    expect(await writeSessionRecord(root, state, 'x.json', 'a', { n: 1 }, options)).toBe(false);
    expect(await writeSessionRecord(root, state, 'x.json', 'a', { n: 5 }, { valid })).toBe(true);
    expect(readFileSync(join(state, 'x.json'), 'utf8')).toBe('{\n "sessions": {\n  "b": {\n   "n": 2\n  },\n  "a": {\n   "n": 5\n  }\n }\n}\n');
  });
});
