import { existsSync, lstatSync, mkdirSync, renameSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packText, scanForPack } from '../../../../src/kernel/rank/cache.js';
import { WORD_INDEX_FILE } from '../../../../src/kernel/state/word-index.js';
import type { MemoryFile } from '../../../../src/kernel/store/types.js';
import { tempDir, stateOf } from '../../../helpers/cli.js';
import { runMemctx } from '../../../helpers/run.js';
import { packRecords, writePackRecords } from '../../../helpers/pack-cache.js';

const PAST = new Date('2026-01-01T00:00:00Z');
const NOW = new Date('2026-11-23T00:00:00Z');

/** Files whose packed text differs from the bytes on disk: BOM, CRLF, control characters, no final newline. */
const FILES: Record<string, string> = {
  'MEMORY.md': '# Memory\n',
  'bom.md': '\uFEFF---\r\nname: Bom token\r\ntype: project\r\nrelated: [plain.md]\r\n---\r\nAuth token rotation.\r\n',
  'ctl.md': '---\nname: Controls\ndescription: auth migration\n---\nESC \u001b[31m red \u0007 bell\tTODO migrate auth',
  'plain.md': '---\nname: Plain\ndescription: token cache notes\nimportance: 8\n---\n\nSee [bom](bom.md) and [[Controls]].\n',
  'sub/deep.md': 'No frontmatter, auth token text without a final newline',
  'bad.md': '---\nname: [unclosed\n---\n',
};

function memoryDir(): { cwd: string; root: string } {
  const cwd = tempDir('memctx-read-once-');
  const root = join(cwd, '.memory');
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
    utimesSync(join(root, path), PAST, PAST);
  }
  return { cwd, root };
}

function recorder(root: string) {
  const seen = new Map<string, string>();
  return {
    seen,
    options: {
      now: Date.now() + 10_000,
      describe: (file: MemoryFile, text: string) => {
        seen.set(file.path, text);
        return { hash: `h:${text}`, markers: false, bounds: { min: 0, max: text.length } };
      },
    },
    root,
  };
}

describe('pack reads each memory file once', () => {
  it('describes each file with the text packText reads from disk, and textOf gives it without reading again', async () => {
    const { root } = memoryDir();
    const run = recorder(root);
    const scan = await scanForPack(root, run.options);
    expect([...run.seen.keys()]).toEqual(['bom.md', 'ctl.md', 'plain.md', 'sub/deep.md']);
    for (const [path, text] of run.seen) {
      expect(text).toBe(packText(root, path));
      expect(scan.textOf(path)).toBe(text);
    }
    expect(run.seen.get('bom.md')).toBe('---\nname: Bom token\ntype: project\nrelated: [plain.md]\n---\nAuth token rotation.\n');
    expect(run.seen.get('ctl.md')).toBe('---\nname: Controls\ndescription: auth migration\n---\nESC \u241b[31m red \u2407 bell\tTODO migrate auth\n');
    expect(scan.problems.map((p) => p.path)).toEqual(['bad.md']);
  });

  it('keys a file first seen by the stat of its read, so the next scan answers from the cache', async () => {
    const { root } = memoryDir();
    await (await scanForPack(root, recorder(root).options)).save();
    const records = packRecords(root);
    for (const path of ['bom.md', 'ctl.md', 'plain.md', 'sub/deep.md', 'bad.md']) {
      const st = lstatSync(join(root, path));
      expect(records[path].key).toBe(`${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}`);
    }
    const warm = recorder(root);
    const scan = await scanForPack(root, warm.options);
    expect(warm.seen.size).toBe(0);
    expect(scan.files.map((f) => f.hash)).toEqual(['bom.md', 'ctl.md', 'plain.md', 'sub/deep.md'].map((p) => `h:${packText(root, p)}`));
  });

  it('re-reads a file changed between runs, even at the same size', async () => {
    const { root } = memoryDir();
    await (await scanForPack(root, recorder(root).options)).save();
    writeFileSync(join(root, 'plain.md'), FILES['plain.md'].replace('Plain', 'Other'));
    utimesSync(join(root, 'plain.md'), PAST, new Date('2026-01-02T00:00:00Z'));
    const again = recorder(root);
    const scan = await scanForPack(root, again.options);
    expect([...again.seen.keys()]).toEqual(['plain.md']);
    expect(scan.files.find((f) => f.path === 'plain.md')!.name).toBe('Other');
    expect(scan.textOf('plain.md')).toBe(packText(root, 'plain.md'));
  });
});

describe('cold and warm pack', () => {
  const strip = (stdout: string) => {
    const { caches, tokenizer, ...rest } = JSON.parse(stdout);
    return { rest, caches, hits: tokenizer.cacheHits, misses: tokenizer.cacheMisses };
  };

  it('give the same bundle, counts and ranking; the warm run answers every count from the cache', async () => {
    const { cwd } = memoryDir();
    const args = ['pack', '--json', '--task', 'auth token migration'];
    const cold = await runMemctx(args, { cwd, now: NOW });
    const warm = await runMemctx(args, { cwd, now: NOW });
    expect(cold.code).toBe(0);
    expect(warm.code).toBe(0);
    const a = strip(cold.stdout);
    const b = strip(warm.stdout);
    expect(b.rest).toEqual(a.rest);
    expect(a.caches).toEqual({ tokenCounts: 'missing', files: 'missing' });
    expect(b.caches).toEqual({ tokenCounts: 'read', files: 'read' });
    expect(b.misses).toBe(0);
    expect(a.rest.bundle).toContain('ESC \u241b[31m red \u2407 bell');
    expect(a.rest.files.map((f: { path: string }) => f.path).sort()).toEqual(['bom.md', 'ctl.md', 'plain.md', 'sub/deep.md']);
  });

  it('look for links only when --focus or a task needs them, and a later --focus run finds them as a cold one does', async () => {
    const records = (root: string) => Object.values(packRecords(root));
    const focus = ['pack', '--json', '--focus', 'plain.md'];
    // Past the racy window of files just written (their ctime is now), so their entries are kept.
    const now = new Date(Date.now() + 10_000);
    const fresh = memoryDir();
    const cold = strip((await runMemctx(focus, { cwd: fresh.cwd, now })).stdout);
    const { cwd, root } = memoryDir();
    expect((await runMemctx(['pack', '--json'], { cwd, now })).code).toBe(0);
    expect(records(root).filter((r) => r.value).map((r) => [r.value!.path, r.value!.links])).toEqual(['bom.md', 'ctl.md', 'plain.md', 'sub/deep.md'].map((path) => [path, undefined]));
    const later = strip((await runMemctx(focus, { cwd, now })).stdout);
    expect(later.rest).toEqual(cold.rest);
    expect(later.rest.files.filter((f: { reasons: string[] }) => f.reasons.includes('linked-from-active')).map((f: { path: string }) => f.path).sort()).toEqual(['bom.md', 'ctl.md']);
    expect(records(root).find((r) => r.value?.path === 'plain.md')!.value!.links).toEqual(['m:bom.md', 'w:Controls']);
  });

  it('give the same search hits', async () => {
    const { cwd } = memoryDir();
    const args = ['search', '--json', 'auth token'];
    const cold = await runMemctx(args, { cwd, now: NOW });
    const warm = await runMemctx(args, { cwd, now: NOW });
    expect(cold.code).toBe(1); // bad.md is reported
    expect([warm.code, warm.stderr]).toEqual([cold.code, cold.stderr]);
    expect(JSON.parse(warm.stdout)).toEqual(JSON.parse(cold.stdout));
    expect(JSON.parse(cold.stdout).map((h: { path: string }) => h.path).sort()).toEqual(['bom.md', 'ctl.md', 'plain.md', 'sub/deep.md']);
  });
});

describe('a cached entry of the wrong shape', () => {
  it.each([
    ['a link that is not a string', (v: Record<string, unknown>) => ({ ...v, links: [5] })],
    ['a link of an unknown kind', (v: Record<string, unknown>) => ({ ...v, links: ['x:plain.md'] })],
    ['a words key of two numbers', (v: Record<string, unknown>) => ({ ...v, words: [1, 2] })],
    ['no hash', (v: Record<string, unknown>) => ({ ...v, hash: undefined })],
    ['no body length', (v: Record<string, unknown>) => ({ ...v, bodyLength: undefined })],
  ])('is read again: %s', async (_, spoil) => {
    const { root } = memoryDir();
    await (await scanForPack(root, recorder(root).options)).save();
    const records = packRecords(root);
    records['plain.md'].value = spoil(records['plain.md'].value!) as typeof records['plain.md']['value'];
    writePackRecords(root, records);
    const again = recorder(root);
    const scan = await scanForPack(root, again.options);
    expect([...again.seen.keys()]).toEqual(['plain.md']);
    expect(scan.files.find((f) => f.path === 'plain.md')!.links).toEqual(expect.arrayContaining([{ kind: 'markdown', target: 'bom.md' }]));
  });
});

describe('word bags', () => {
  it('come from the word index, built the first time they are asked and then read (a later scan reads no body for them)', async () => {
    const { root } = memoryDir();
    const cold = await scanForPack(root, recorder(root).options);
    await cold.save();
    const stored = () => packRecords(root)['plain.md'].value as unknown as { bags?: unknown[]; words?: unknown; bodyLength: number };
    expect(stored().words).toBeUndefined();
    expect(existsSync(join(stateOf(root), WORD_INDEX_FILE))).toBe(false);
    const warm = await scanForPack(root, recorder(root).options);
    const plain = warm.files.find((f) => f.path === 'plain.md')!;
    expect(stored().bodyLength).toBe(plain.body.length);
    const bags = plain.bags;
    expect(bags).toHaveLength(4);
    expect(bags.slice(0, 3)).toEqual([null, null, null]);
    expect([bags[3]!.length, bags[3]!.count!('see', ['see']), bags[3]!.count!('bom', ['bom'])]).toEqual([plain.body.length, 1, 2]);
    expect(plain.words).toEqual([plain.body.length, expect.any(Number), expect.any(Number)]);
    await warm.save();
    expect(stored()).not.toHaveProperty('bags');
    expect(stored().words).toEqual(plain.words);
    expect(existsSync(join(stateOf(root), WORD_INDEX_FILE))).toBe(true);
    const again = recorder(root);
    const third = await scanForPack(root, again.options);
    // The file goes away after the scan: its counts still come from the index, not from its body.
    renameSync(join(root, 'plain.md'), join(root, 'plain.gone'));
    const bag = third.files.find((f) => f.path === 'plain.md')!.bags[3]!;
    expect([bag.count!('see', ['see']), bag.count!('bom', ['bom']), bag.count!('token', ['toke'])]).toEqual([1, 2, 0]);
    expect([...again.seen.keys()]).toEqual([]);
  });
});

describe('a text check', () => {
  it('is answered from the cache for an unchanged file, and asked again under another id', async () => {
    const { root } = memoryDir();
    const asked: string[] = [];
    const check = (id: string) => ({ id, test: (text: string) => (asked.push(id), text.includes('auth')) });
    const cold = await scanForPack(root, recorder(root).options);
    const answers = cold.files.map((f) => cold.checked(f.path, check('v1')));
    await cold.save();
    expect(asked).toHaveLength(cold.files.length);
    const warm = await scanForPack(root, recorder(root).options);
    expect(warm.files.map((f) => warm.checked(f.path, check('v1')))).toEqual(answers);
    expect(asked).toHaveLength(cold.files.length);
    expect(warm.files.map((f) => warm.checked(f.path, check('v2')))).toEqual(answers);
    expect(asked).toHaveLength(2 * cold.files.length);
    expect(answers).toContain(true);
    expect(answers).toContain(false);
  });
});

describe('a text measure', () => {
  it('is answered from the cache for an unchanged file (its text not read), asked again under another id or once the file changed', async () => {
    const { root } = memoryDir();
    const asked: string[] = [];
    const measure = (id: string) => ({ id, of: (text: string) => (asked.push(id), text.length) });
    const cold = await scanForPack(root, { ...recorder(root).options, stream: { keep: 0 } });
    const sizes = cold.files.map((f) => cold.measured(f.path, measure('v1')));
    expect(sizes).toEqual(cold.files.map((f) => packText(root, f.path)!.length));
    await cold.save();
    const warm = await scanForPack(root, { ...recorder(root).options, stream: { keep: 0 } });
    asked.length = 0;
    expect(warm.files.map((f) => warm.measured(f.path, measure('v1')))).toEqual(sizes);
    expect(asked).toEqual([]);
    expect(warm.files.map((f) => warm.measured(f.path, measure('v2')))).toEqual(sizes);
    expect(asked).toHaveLength(sizes.length);
    await warm.save();
    writeFileSync(join(root, 'plain.md'), FILES['plain.md'] + 'More.\n');
    utimesSync(join(root, 'plain.md'), PAST, PAST);
    const changed = await scanForPack(root, { ...recorder(root).options, stream: { keep: 0 } });
    asked.length = 0;
    const plain = changed.files.findIndex((f) => f.path === 'plain.md');
    expect(changed.measured('plain.md', measure('v2'))).toBe(sizes[plain] + 'More.\n'.length);
    expect(changed.files.map((f) => changed.measured(f.path, measure('v2')))[0]).toBe(sizes[0]);
    expect(asked).toEqual(['v2']);
  });
});

describe('a scan that keeps few texts (a query)', () => {
  it('indexes each body, finds its links and answers its check as it reads, and keeps the same answers as a scan that keeps the texts', async () => {
    const { root } = memoryDir();
    const asked: string[] = [];
    const check = { id: 'v1', test: (text: string) => (asked.push(text), text.includes('auth')) };
    const kept = memoryDir().root;
    const reference = await scanForPack(kept, recorder(kept).options);
    const scan = await scanForPack(root, { ...recorder(root).options, stream: { check, keep: 0 } });
    // Every text was checked while it was read; asking again reads nothing.
    expect(asked).toHaveLength(4);
    expect(scan.files.map((f) => scan.checked(f.path, check))).toEqual(reference.files.map((f) => reference.checked(f.path, { id: 'v1', test: (t) => t.includes('auth') })));
    expect(asked).toHaveLength(4);
    // The texts are not held: a file gone after the scan reads as empty (the scan that keeps them still has it).
    renameSync(join(root, 'ctl.md'), join(root, 'ctl.gone'));
    renameSync(join(kept, 'ctl.md'), join(kept, 'ctl.gone'));
    expect([scan.textOf('ctl.md'), reference.textOf('ctl.md') === packText(kept, 'ctl.gone')]).toEqual(['', true]);
    // Links and word counts without reading any body.
    expect(scan.files.map((f) => f.links)).toEqual(reference.files.map((f) => f.links));
    const counts = (files: typeof scan.files) => files.map((f) => f.bags[3]?.count?.('token', ['toke']) ?? null);
    expect(counts(scan.files)).toEqual(counts(reference.files));
    expect(counts(scan.files)).toContain(1);
    // The index is kept even when no query asked for it; a small memory's texts are all kept (none is read twice).
    const other = memoryDir().root;
    const small = await scanForPack(other, { ...recorder(other).options, stream: {} });
    renameSync(join(other, 'ctl.md'), join(other, 'ctl.gone'));
    expect(small.textOf('ctl.md')).toBe(packText(other, 'ctl.gone'));
    await small.save();
    expect(existsSync(join(stateOf(other), WORD_INDEX_FILE))).toBe(true);
  });
});
