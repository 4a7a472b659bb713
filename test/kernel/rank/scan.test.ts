// rank/scan.ts: every memory file for pack and search, each described once (hash, markers, token bounds).
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanCached } from '../../../src/kernel/rank/scan.js';
import { tokenBounds } from '../../../src/kernel/rank/file-tokens.js';
import { contentHash } from '../../../src/kernel/tokens/hash.js';
import { tempDir } from '../../helpers/cli.js';

const PAST = new Date('2026-01-01T00:00:00Z');
const A = '---\nname: A\ndescription: first\n---\nTODO: fix it.\n';
const B = '---\nname: B\n---\r\nBody of b.'; // packed as LF, ending with a newline

function memoryDir(): string {
  const root = tempDir();
  mkdirSync(join(root, 'sub'));
  for (const [path, text] of [['a.md', A], ['sub/b.md', B], ['MEMORY.md', '# Memory\n']]) {
    writeFileSync(join(root, path), text);
    utimesSync(join(root, path), PAST, PAST);
  }
  return root;
}

describe('scanCached', () => {
  it('describes each file from its text as packed, and shows each text read', async () => {
    const root = memoryDir();
    const read: [string, string][] = [];
    const scan = await scanCached(root, new Date(Date.now() + 10_000), (text, hash) => read.push([text, hash]));
    const packedB = '---\nname: B\n---\nBody of b.\n';
    const byPath = Object.fromEntries(scan.files.map((f) => [f.path, { hash: f.hash, markers: f.markers, bounds: f.bounds }]));
    expect(byPath).toEqual({
      'a.md': { hash: contentHash(A), markers: true, bounds: tokenBounds(A) },
      'sub/b.md': { hash: contentHash(packedB), markers: false, bounds: tokenBounds(packedB) },
    });
    expect(read.sort()).toEqual([[A, contentHash(A)], [packedB, contentHash(packedB)]].sort());
    expect(scan.textOf('sub/b.md')).toBe(packedB);
  });

  it('a second scan over unchanged files takes them from the cache: nothing is described again', async () => {
    const root = memoryDir();
    const later = new Date(Date.now() + 10_000);
    await (await scanCached(root, later)).save();
    const read: string[] = [];
    const again = await scanCached(root, later, (text) => read.push(text));
    expect([again.status, read, again.files.map((f) => f.markers).sort()]).toEqual(['read', [], [false, true]]);
  });
});
