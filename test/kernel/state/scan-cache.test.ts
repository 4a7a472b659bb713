import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scanIndexEntries } from '../../../src/kernel/state/scan-cache.js';
import { cacheVersion } from '../../../src/kernel/state/stat-cache.js';
import { removeDir, tempDir, stateOf } from '../../helpers/cli.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

function memoryDir(files: Record<string, string>): string {
  const root = join(tempDir(), '.memory');
  dirs.push(root);
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'MEMORY.md'), '# Memory\n'); // .memctx/ is made only beside a MEMORY.md
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
    // Old enough that the cache trusts the stat.
    utimesSync(join(root, path), new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T00:00:00Z'));
  }
  return root;
}

const note = (name: string) => `---\nname: ${name}\ndescription: about ${name}\ntype: project\n---\nbody\n`;
// A minute ahead: the files' ctime is the real time of the test run, so they are not "racy".
const NOW = Date.now() + 60_000;
const cacheFile = (root: string) => join(stateOf(root), 'scan-cache.json');

describe('scanIndexEntries', () => {
  it('caches entries and answers from the cache when the stat is unchanged', async () => {
    const root = memoryDir({ 'a.md': note('Alpha'), 'b.md': note('Beta') });
    const first = (await scanIndexEntries(root, NOW));
    expect(first.files.map((f) => f.name)).toEqual(['Alpha', 'Beta']);
    const cache = JSON.parse(readFileSync(cacheFile(root), 'utf8'));
    expect(Object.keys(cache.records)).toEqual(['a.md', 'b.md']);
    // Poison the cached name: a second scan must come from the cache, proving no re-read.
    cache.records['a.md'].value.name = 'From cache';
    writeFileSync(cacheFile(root), JSON.stringify(cache));
    expect((await scanIndexEntries(root, NOW)).files.map((f) => f.name)).toEqual(['From cache', 'Beta']);
  });

  it('re-reads a file whose size or mtime changed', async () => {
    const root = memoryDir({ 'a.md': note('Alpha') });
    (await scanIndexEntries(root, NOW));
    writeFileSync(join(root, 'a.md'), note('Alpha two'));
    utimesSync(join(root, 'a.md'), new Date('2026-02-01T00:00:00Z'), new Date('2026-02-01T00:00:00Z'));
    expect((await scanIndexEntries(root, NOW)).files.map((f) => f.name)).toEqual(['Alpha two']);
  });

  it('does not cache a file changed within the last two seconds', async () => {
    const root = memoryDir({ 'a.md': note('Alpha') });
    const mtime = readMtime(join(root, 'a.md'));
    (await scanIndexEntries(root, mtime + 500));
    const cache = JSON.parse(readFileSync(cacheFile(root), 'utf8'));
    expect(cache.records).toEqual({});
  });

  it('leaves the cache file as it was when only a new file too recent to keep appeared (a flush\'s session file)', async () => {
    const root = memoryDir({ 'a.md': note('Alpha') });
    await scanIndexEntries(root, NOW);
    const before = statSync(cacheFile(root));
    writeFileSync(join(root, 'b.md'), note('Beta'));
    // Changed "just now" at the scan's clock, while a.md is old enough.
    utimesSync(join(root, 'b.md'), new Date(NOW - 500), new Date(NOW - 500));
    expect((await scanIndexEntries(root, NOW)).files.map((f) => f.name)).toEqual(['Alpha', 'Beta']);
    const after = statSync(cacheFile(root));
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    expect(Object.keys(JSON.parse(readFileSync(cacheFile(root), 'utf8')).records)).toEqual(['a.md']);
    // Once old enough, it is kept.
    await scanIndexEntries(root, NOW + 5_000);
    expect(Object.keys(JSON.parse(readFileSync(cacheFile(root), 'utf8')).records)).toEqual(['a.md', 'b.md']);
  });

  it('ignores a corrupt cache and rebuilds it', async () => {
    const root = memoryDir({ 'a.md': note('Alpha') });
    mkdirSync(join(root, '.memctx'));
    writeFileSync(cacheFile(root), `{"version":"${cacheVersion()}","records":`);
    expect((await scanIndexEntries(root, NOW)).files.map((f) => f.name)).toEqual(['Alpha']);
    expect(JSON.parse(readFileSync(cacheFile(root), 'utf8')).records['a.md'].value.name).toBe('Alpha');
  });

  it('caches problems too, and drops records of deleted files', async () => {
    const root = memoryDir({ 'bad.md': '---\nname: [unclosed\n---\n', 'a.md': note('Alpha') });
    const first = (await scanIndexEntries(root, NOW));
    expect(first.problems).toEqual([expect.objectContaining({ path: 'bad.md', line: expect.any(Number) })]);
    expect((await scanIndexEntries(root, NOW)).problems.map((p) => p.path)).toEqual(['bad.md']);
    removeDir(join(root, 'bad.md'));
    expect((await scanIndexEntries(root, NOW)).problems).toEqual([]);
    expect(Object.keys(JSON.parse(readFileSync(cacheFile(root), 'utf8')).records)).toEqual(['a.md']);
  });
});

describe('scanIndexEntries with a symlinked .memctx', () => {
  it('neither reads nor writes the cache through the link', async () => {
    const root = memoryDir({ 'a.md': note('Alpha') });
    const elsewhere = tempDir('memctx-elsewhere-');
    dirs.push(elsewhere);
    const st = statSync(join(root, 'a.md'));
    const key = `${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}`;
    writeFileSync(join(elsewhere, 'scan-cache.json'), JSON.stringify({ version: cacheVersion(), records: { 'a.md': { key, value: { path: 'a.md', name: 'Planted', importance: 5, pinned: false, tags: [] } } } }));
    symlinkSync(elsewhere, join(root, '.memctx'));
    expect((await scanIndexEntries(root, NOW)).files.map((f) => f.name)).toEqual(['Alpha']);
    expect(JSON.parse(readFileSync(join(elsewhere, 'scan-cache.json'), 'utf8')).records['a.md'].value.name).toBe('Planted');
    expect(existsSync(join(elsewhere, 'lock'))).toBe(false);
  });
});

function readMtime(path: string): number {
  const st = statSync(path);
  return Math.max(st.mtimeMs, st.ctimeMs);
}
