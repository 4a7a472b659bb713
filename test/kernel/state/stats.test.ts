import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { accessCount, readStats, recordAccess } from '../../../src/kernel/state/stats.js';
import { removeDir, tempDir, stateOf } from '../../helpers/cli.js';

describe('stats.json in the state folder', () => {
  let dir = '';
  afterEach(() => removeDir(dir));

  it('counts accesses and keeps the last time, per path', async () => {
    dir = tempDir();
    writeFileSync(join(dir, 'MEMORY.md'), '# Memory\n'); // state is kept only for a memory directory with a MEMORY.md
    expect(readStats(dir).files).toEqual({});
    await recordAccess(dir, ['a.md', 'b.md', 'a.md'], new Date('2026-01-01T10:00:00Z'));
    await recordAccess(dir, ['a.md'], new Date('2026-01-02T10:00:00Z'));
    const stats = readStats(dir);
    expect(accessCount(stats, 'a.md')).toBe(2);
    expect(accessCount(stats, 'b.md')).toBe(1);
    expect(accessCount(stats, 'c.md')).toBe(0);
    expect(JSON.parse(readFileSync(join(stateOf(dir), 'stats.json'), 'utf8'))).toEqual({
      files: { 'a.md': { count: 2, last: '2026-01-02T10:00:00Z' }, 'b.md': { count: 1, last: '2026-01-01T10:00:00Z' } },
    });
  });

  it('reads a corrupt file as empty and rebuilds it on the next write', async () => {
    dir = tempDir();
    writeFileSync(join(dir, 'MEMORY.md'), '# Memory\n');
    writeFileSync(join(stateOf(dir), 'stats.json'), '{"files": {"a.md": {"count": 3, "last"');
    expect(readStats(dir).files).toEqual({});
    await recordAccess(dir, ['a.md'], new Date('2026-01-01T00:00:00Z'));
    expect(accessCount(readStats(dir), 'a.md')).toBe(1);
  });

  it('skips malformed entries and never lets a key reach the prototype', () => {
    dir = tempDir();
    writeFileSync(join(dir, 'MEMORY.md'), '# Memory\n');
    writeFileSync(join(stateOf(dir), 'stats.json'), '{"files": {"ok.md": {"count": 2, "last": "2026-01-01T00:00:00Z"}, "bad.md": {"count": -1, "last": "x"}, "__proto__": {"count": 1, "last": "2026-01-01T00:00:00Z"}, "toString": 5}}');
    const stats = readStats(dir);
    expect(Object.keys(stats.files).sort()).toEqual(['__proto__', 'ok.md']);
    expect(accessCount(stats, 'toString')).toBe(0);
    expect(({} as Record<string, unknown>).count).toBeUndefined();
  });
});
