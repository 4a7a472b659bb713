import { mkdirSync, readdirSync, renameSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bodyOf, packText, scanForPack, PACK_CACHE_FILE, PACK_ROWS } from '../../../src/kernel/rank/cache.js';
import { cacheVersion } from '../../../src/kernel/state/stat-cache.js';
import { encodeTable } from '../../../src/kernel/state/table.js';
import { useWordIndex } from '../../../src/kernel/state/word-index.js';
import { listMemoryPaths } from '../../../src/kernel/store/scan.js';
import type { MemoryFile } from '../../../src/kernel/store/types.js';
import { removeDir, tempDir, stateOf } from '../../helpers/cli.js';
import { packRecords } from '../../helpers/pack-cache.js';

const PAST = new Date('2026-01-01T00:00:00Z');

function memoryDir(): string {
  const root = tempDir();
  const write = (path: string, text: string) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
    utimesSync(join(root, path), PAST, PAST);
  };
  write('a.md', '---\nname: A\ndescription: first\nkind: issue\nrelated: [b.md]\n---\n\nTODO: fix [[B]] and [b](b.md) and [b](b.md).\n');
  write('b.md', '\uFEFF---\r\nname: B\r\ntype: project\r\n---\r\nBody of b.\r\n');
  write('sub/c.md', 'No frontmatter at all');
  write('bad.md', '---\nname: [unclosed\n---\n');
  write('MEMORY.md', '# Memory\n');
  write('archive/old.md', '---\nname: old\n---\n');
  write('templates/t.md', 'template\n');
  write('.memctx/x.md', 'cache\n');
  return root;
}

function describer() {
  const calls: string[] = [];
  return {
    calls,
    // Files were just written, so their ctime is now: scan "later" unless a test wants them racy.
    options: (root: string, now = Date.now() + 10_000) => ({
      now,
      describe: (file: MemoryFile) => {
        calls.push(file.path);
        const text = packText(root, file.path) ?? '';
        return { text, hash: `h:${text.length}`, markers: file.body.includes('TODO'), bounds: { min: 1, max: text.length } };
      },
    }),
  };
}

describe('the pack cache', () => {
  let root = '';
  afterEach(() => removeDir(root));

  it('packs the files the store lists, problems included', async () => {
    root = memoryDir();
    const scan = await scanForPack(root, describer().options(root));
    expect([...scan.files.map((f) => f.path), ...scan.problems.map((p) => p.path)].sort()).toEqual(listMemoryPaths(root));
    expect(listMemoryPaths(root)).toEqual(['a.md', 'b.md', 'bad.md', 'sub/c.md']);
  });

  it('reads each file once, then answers from the cache until a file changes', async () => {
    root = memoryDir();
    const first = describer();
    const cold = await scanForPack(root, first.options(root));
    expect(cold.status).toBe('missing');
    expect(first.calls).toEqual(['a.md', 'b.md', 'sub/c.md']);
    expect(cold.problems.map((p) => p.path)).toEqual(['bad.md']);
    await cold.save();

    const second = describer();
    const warm = await scanForPack(root, second.options(root));
    expect(warm.status).toBe('read');
    expect(second.calls).toEqual([]);
    expect(warm.problems).toEqual(cold.problems);
    const a = warm.files.find((f) => f.path === 'a.md')!;
    expect(a).toMatchObject({ name: 'A', description: 'first', kind: 'issue', markers: true, hash: cold.files[0].hash });
    expect(a.links).toEqual(expect.arrayContaining([{ kind: 'related', target: 'b.md' }, { kind: 'wiki', target: 'B' }, { kind: 'markdown', target: 'b.md' }]));
    expect(a.links).toHaveLength(3); // the repeated [b](b.md) is kept once
    expect(warm.files.map((f) => f.body)).toEqual(cold.files.map((f) => f.body));
    expect(warm.files.find((f) => f.path === 'b.md')!.body).toBe('Body of b.\n');

    writeFileSync(join(root, 'b.md'), '---\nname: B2\n---\nchanged\n');
    utimesSync(join(root, 'b.md'), PAST, new Date('2026-01-02T00:00:00Z'));
    const third = describer();
    const after = await scanForPack(root, third.options(root));
    expect(third.calls).toEqual(['b.md']);
    expect(after.files.find((f) => f.path === 'b.md')!.name).toBe('B2');
  });

  it('does not cache files changed in the last two seconds', async () => {
    root = memoryDir(); // just written: every ctime is now
    const now = Date.now();
    await (await scanForPack(root, describer().options(root, now))).save();
    const again = describer();
    await (await scanForPack(root, again.options(root, now))).save();
    expect(again.calls).toEqual(['a.md', 'b.md', 'sub/c.md']);
    await (await scanForPack(root, describer().options(root, now + 10_000))).save();
    const later = describer();
    await scanForPack(root, later.options(root, now + 10_000));
    expect(later.calls).toEqual([]);
  });

  it('keeps no words or check answer made from a body that could not be read', async () => {
    root = memoryDir();
    await (await scanForPack(root, describer().options(root))).save();
    const warm = await scanForPack(root, describer().options(root));
    const stored = () => packRecords(root) as Record<string, { value: { bags?: unknown; check?: unknown } }>;
    // b.md goes away after the scan listed it: its body reads as ''.
    renameSync(join(root, 'b.md'), join(root, 'b.gone'));
    const check = { id: 'empty', test: (text: string) => text === '' };
    const [a, b] = ['a.md', 'b.md'].map((path) => warm.files.find((f) => f.path === path)!);
    expect([a.bags, b.bags].map((bags) => bags.length)).toEqual([4, 4]);
    expect(a.bags[3]?.count?.('fix', ['fix'])).toBe(1);
    expect(b.bags[3]).toBeNull();
    expect(b.body).toBe('');
    expect([warm.checked('a.md', check), warm.checked('b.md', check)]).toEqual([false, true]);
    await warm.save();
    expect(stored()['a.md'].value).toMatchObject({ check: ['empty', false] });
    expect(stored()['a.md'].value).not.toHaveProperty('bags');
    // The word index holds a.md's words (its text is not asked for) and not b.md's.
    const asked: string[] = [];
    const index = useWordIndex(stateOf(root), cacheVersion(), [a, b].map((f) => ({ hash: f.hash, indexText: () => (asked.push(f.path), undefined) })));
    expect(index.status).toBe('read');
    expect(asked).toEqual(['b.md']);
    expect(stored()['b.md'].value.check).toBeUndefined();
    expect(b.links).toEqual([]);
    await warm.save();
    expect(stored()['b.md'].value).not.toHaveProperty('links');
  });

  it('finds a file\'s links only when asked, from the scan\'s parse or else by parsing it again, and keeps them', async () => {
    root = memoryDir();
    const stored = () => packRecords(root) as Record<string, { value: { links?: string[] } }>;
    const cold = await scanForPack(root, describer().options(root));
    await cold.save();
    expect(Object.values(stored()).filter((r) => r.value && 'links' in r.value)).toEqual([]);
    expect(cold.files.find((f) => f.path === 'sub/c.md')!.links).toEqual([]);
    await cold.save();
    expect(stored()['sub/c.md'].value.links).toEqual([]);
    expect(stored()['a.md'].value).not.toHaveProperty('links');

    const warm = await scanForPack(root, describer().options(root));
    expect(warm.files.find((f) => f.path === 'a.md')!.links).toEqual([
      { kind: 'related', target: 'b.md' },
      { kind: 'wiki', target: 'B' },
      { kind: 'markdown', target: 'b.md' },
    ]);
    await warm.save();
    expect(stored()['a.md'].value.links).toEqual(['r:b.md', 'w:B', 'm:b.md']);
    expect(stored()['b.md'].value).not.toHaveProperty('links');
  });

  it.each([
    ['a JSON cache of an older build', `{"version": "${cacheVersion()}", "records": {}, "rows": []}`],
    ['a truncated one', () => encodeTable(cacheVersion(), {}, [['a.md', 1, 2, 3, 4, 0]]).subarray(0, 40)],
    ['another build\'s', () => encodeTable('0.0.1', {}, [])],
  ])('ignores %s and rebuilds it', async (_, content) => {
    root = memoryDir();
    mkdirSync(join(root, '.memctx'), { recursive: true });
    writeFileSync(join(stateOf(root), PACK_CACHE_FILE), typeof content === 'string' ? content : content());
    const run = describer();
    const scan = await scanForPack(root, run.options(root));
    expect(run.calls).toEqual(['a.md', 'b.md', 'sub/c.md']);
    await scan.save();
    expect(Object.keys(packRecords(root)).sort()).toEqual(['a.md', 'b.md', 'bad.md', 'sub/c.md']);
  });

  it('removes the JSON cache an older build kept when it writes its own', async () => {
    root = memoryDir();
    mkdirSync(join(root, '.memctx'), { recursive: true });
    writeFileSync(join(stateOf(root), 'pack-cache.json'), `{"version": "${cacheVersion()}", "records": {}, "rows": []}`);
    await (await scanForPack(root, describer().options(root))).save();
    expect(readdirSync(stateOf(root)).filter((name) => name.startsWith('pack-cache'))).toEqual([PACK_CACHE_FILE]);
  });
});

describe('PACK_ROWS', () => {
  it('gives back every field of a cached file as it was: a field it lacks stays undefined, a null stays null', () => {
    const stored = {
      path: 'a.md', name: 'A', description: 'd', type: 'project', kind: null, updated: '2026-01-02', created: undefined, importance: 0, tags: ['x'], status: undefined, severity: undefined, expires: undefined,
      pinned: false, supersedes: [], mtimeMs: 1.5, hash: 'h', markers: true, bounds: [1, 9], bodyLength: 7, links: undefined, words: null, check: ['id', false], measure: ['m', 12],
    };
    const row = ['a.md', 'key', ...PACK_ROWS.toRow(stored as never)];
    expect(PACK_ROWS.fromRow(JSON.parse(JSON.stringify(row)), 2)).toStrictEqual(stored);
    expect(PACK_ROWS.fromRow([...row, 'extra'], 2)).toBeUndefined();
    expect(PACK_ROWS.fromRow(['a.md', 'key', 'not a mask', ...row.slice(3)], 2)).toBeUndefined();
  });
});

describe('texts', () => {
  let root = '';
  afterEach(() => removeDir(root));

  it('packs the file as on disk, BOM dropped, LF line endings, ending with a newline', () => {
    root = memoryDir();
    expect(packText(root, 'b.md')).toBe('---\nname: B\ntype: project\n---\nBody of b.\n');
    expect(packText(root, 'sub/c.md')).toBe('No frontmatter at all\n');
    expect(packText(root, 'missing.md')).toBeUndefined();
  });

  it.each([
    ['---\nname: a\n---\n\nbody\n', '\nbody\n'],
    ['---\n---\nx', 'x'],
    ['no frontmatter\n', 'no frontmatter\n'],
    ['----\nnot a block\n---\nrest', '----\nnot a block\n---\nrest'],
    ['---\nname: a\n', '---\nname: a\n'],
  ])('bodyOf(%j) is %j', (text, body) => {
    expect(bodyOf(text)).toBe(body);
  });
});
