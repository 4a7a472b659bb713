import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openWordIndex, useWordIndex, WORD_INDEX_FILE, type IndexedText, type WordIndex } from '../../../src/kernel/state/word-index.js';
import { fieldBag } from '../../../src/kernel/text/bm25.js';
import { relevance, type MatchableFile } from '../../../src/kernel/text/relevance.js';
import { removeDir, tempDir } from '../../helpers/cli.js';

const VERSION = 'test:1';
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

function stateDir(): string {
  const dir = tempDir('memctx-word-index-');
  dirs.push(dir);
  return dir;
}

/** Texts by hash, recording which were asked for. */
function texts(byHash: Record<string, string | undefined>, asked: string[] = []): IndexedText[] {
  return Object.entries(byHash).map(([hash, text]) => ({ hash, indexText: () => (asked.push(hash), text) }));
}

const BODIES: Record<string, string> = {
  a: 'Token rotation: tokens rotate daily. The rotating token is happy; happiness happens.',
  b: 'Über authentication — überauthentication and Café\u0301 notes, x\u{1F600}y auth.',
  c: '认证 token 令牌',
  d: 'Nothing to see here but generalization, generalizations and generally general things.',
  e: '',
  f: 'Rotations of the auth token and authors authoring authority.',
};

/** The count function of a text's slot (WordIndex.count), or null when it has none. */
function counter(index: WordIndex, hash: string): ((stem: string, prefixes: readonly string[]) => number) | null {
  const slot = index.slotOf(hash);
  return slot === undefined ? null : (stem, prefixes) => index.count(slot, stem, prefixes);
}

const QUERIES = ['token rotation', 'happy auth', 'über authentication', 'general', 'author', 'café notes', 'see here'];

/** Each body's relevance for a query, matched from its text or through the index's bags. */
function scores(bodies: Record<string, string>, query: string, count?: (hash: string) => ((stem: string, prefixes: readonly string[]) => number) | null): number[] {
  const files: MatchableFile[] = Object.entries(bodies).map(([hash, body]) => {
    const counter = count?.(hash);
    const bag = counter ? { ...fieldBag(body)!, count: counter } : null;
    return { path: `${hash}.md`, name: hash, description: '', tags: [], body, ...(count ? { bags: [null, null, null, bag] } : {}) };
  });
  return [...relevance(files, query).scores];
}

describe('the word index', () => {
  it('counts each query term as the texts themselves do (regular and odd words, non-ASCII, CJK matched from the text)', () => {
    const index = useWordIndex(undefined, VERSION, texts(BODIES));
    expect(counter(index, 'c')).toBeNull();
    for (const query of QUERIES) expect(scores(BODIES, query, (hash) => counter(index, hash))).toEqual(scores(BODIES, query));
    expect(counter(index, 'a')!('token', ['toke', 'rotat'])).toBe(3);
    expect(counter(index, 'a')!('happi', ['happ'])).toBe(2);
  });

  it('is read back without asking for any text, and answers the same', async () => {
    const dir = stateDir();
    await useWordIndex(dir, VERSION, texts(BODIES)).save();
    const asked: string[] = [];
    const index = useWordIndex(dir, VERSION, texts(BODIES, asked));
    expect([index.status, index.added, asked]).toEqual(['read', 0, []]);
    for (const query of QUERIES) expect(scores(BODIES, query, (hash) => counter(index, hash))).toEqual(scores(BODIES, query));
  });

  it('indexes a changed text alone, and adds it to the file without reading the others again', async () => {
    const dir = stateDir();
    await useWordIndex(dir, VERSION, texts(BODIES)).save();
    const changed: Record<string, string> = { ...BODIES, a2: 'Token rotation moved to weekly; happy rotations.' };
    delete changed.a;
    const asked: string[] = [];
    const index = useWordIndex(dir, VERSION, texts(changed, asked));
    expect([index.added, asked]).toEqual([1, ['a2']]);
    expect(counter(index, 'a2')!('rotat', ['rotat'])).toBe(2);
    expect(counter(index, 'a')).toBeNull();
    await index.save();
    const again: string[] = [];
    const after = useWordIndex(dir, VERSION, texts({ ...changed, a: BODIES.a }, again));
    // a's text is still in the file (a quarter of it may be texts no file holds): not read again.
    expect([after.status, again]).toEqual(['read', []]);
    for (const query of QUERIES) expect(scores({ ...changed, a: BODIES.a }, query, (hash) => counter(after, hash))).toEqual(scores({ ...changed, a: BODIES.a }, query));
  });

  it('drops the texts no file holds any more once they are more than a quarter of it', async () => {
    const dir = stateDir();
    await useWordIndex(dir, VERSION, texts(BODIES)).save();
    const kept = { a: BODIES.a, b: BODIES.b, c: BODIES.c };
    const index = useWordIndex(dir, VERSION, texts(kept));
    await index.save();
    const asked: string[] = [];
    const after = useWordIndex(dir, VERSION, texts(BODIES, asked));
    expect(asked).toEqual(['d', 'e', 'f']);
    for (const query of QUERIES) expect(scores(BODIES, query, (hash) => counter(after, hash))).toEqual(scores(BODIES, query));
  });

  it('is not written again when nothing changed', async () => {
    const dir = stateDir();
    await useWordIndex(dir, VERSION, texts(BODIES)).save();
    writeFileSync(join(dir, 'marker'), '');
    const before = lstatSync(join(dir, WORD_INDEX_FILE));
    await useWordIndex(dir, VERSION, texts(BODIES)).save();
    const after = lstatSync(join(dir, WORD_INDEX_FILE));
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
  });

  it('keeps no text that could not be read', async () => {
    const dir = stateDir();
    const index = useWordIndex(dir, VERSION, texts({ ...BODIES, gone: undefined }));
    expect(counter(index, 'gone')).toBeNull();
    await index.save();
    const asked: string[] = [];
    useWordIndex(dir, VERSION, texts({ ...BODIES, gone: 'now readable' }, asked));
    expect(asked).toEqual(['gone']);
  });

  it('indexes a single 200 KB line and 100,000 texts', async () => {
    const dir = stateDir();
    const words = Array.from({ length: 30_000 }, (_, i) => `w${i.toString(36)}`);
    const line = Array.from({ length: 40_000 }, (_, i) => words[(i * 7919) % words.length]).join(' ').slice(0, 200_000);
    const many: Record<string, string> = { line };
    for (let i = 0; i < 100_000; i++) many[`t${i}`] = `note ${words[i % words.length]} token`;
    await useWordIndex(dir, VERSION, texts(many)).save();
    const index = useWordIndex(dir, VERSION, texts(many));
    expect([index.status, index.added]).toEqual(['read', 0]);
    expect(counter(index, 't99999')!('token', ['toke'])).toBe(1);
    const some = { line, t0: many.t0, t99999: many.t99999 };
    for (const query of [words[7919], words[1], 'token note']) expect(scores(some, query, (hash) => counter(index, hash))).toEqual(scores(some, query));
    expect(counter(index, 'line')!(words[7919], [words[7919]])).toBeGreaterThan(0);
  }, 20_000);

  describe('a bad index file is ignored and rebuilt', () => {
    const spoilers: [string, (dir: string, bytes: Buffer) => void][] = [
      ['corrupt', (dir) => writeFileSync(join(dir, WORD_INDEX_FILE), 'not an index at all')],
      ['truncated', (dir, bytes) => writeFileSync(join(dir, WORD_INDEX_FILE), bytes.subarray(0, bytes.length - 7))],
      ['a changed head', (dir, bytes) => writeFileSync(join(dir, WORD_INDEX_FILE), Buffer.concat([bytes.subarray(0, 40), Buffer.from([bytes[40] ^ 1]), bytes.subarray(41)]))],
      ['empty', (dir) => writeFileSync(join(dir, WORD_INDEX_FILE), '')],
      ['a folder', (dir) => mkdirSync(join(dir, WORD_INDEX_FILE))],
    ];
    it.each(spoilers)('%s', async (what, spoil) => {
      const dir = stateDir();
      await useWordIndex(dir, VERSION, texts(BODIES)).save();
      const good = readFileSync(join(dir, WORD_INDEX_FILE));
      if (what === 'a folder') removeDir(join(dir, WORD_INDEX_FILE));
      spoil(dir, good);
      const asked: string[] = [];
      const index = useWordIndex(dir, VERSION, texts(BODIES, asked));
      expect(index.status).toBe(what === 'a folder' ? 'missing' : 'rebuilt');
      expect(asked).toEqual(Object.keys(BODIES));
      for (const query of QUERIES) expect(scores(BODIES, query, (hash) => counter(index, hash))).toEqual(scores(BODIES, query));
      if (what === 'a folder') return;
      await index.save();
      expect(readFileSync(join(dir, WORD_INDEX_FILE))).toEqual(good);
    });

    it('a changed posting: found as a query reads it, and the texts indexed again before it answers', async () => {
      const dir = stateDir();
      await useWordIndex(dir, VERSION, texts(BODIES)).save();
      const good = readFileSync(join(dir, WORD_INDEX_FILE));
      // Every byte of every key's postings (after the magic, the head's length and checksum, and the head).
      const start = 28 + good.readUInt32LE(20);
      writeFileSync(join(dir, WORD_INDEX_FILE), Buffer.concat([good.subarray(0, start), Buffer.from(good.subarray(start).map((b) => b ^ 0x40))]));
      const asked: string[] = [];
      const index = useWordIndex(dir, VERSION, texts(BODIES, asked));
      expect([index.status, asked]).toEqual(['read', []]);
      for (const query of QUERIES) expect(scores(BODIES, query, (hash) => counter(index, hash))).toEqual(scores(BODIES, query));
      expect([index.status, asked]).toEqual(['rebuilt', Object.keys(BODIES)]);
      await index.save();
      expect(readFileSync(join(dir, WORD_INDEX_FILE))).toEqual(good);
    });

    it('a changed posting no query reads: found when the file is written again, and rebuilt', async () => {
      const dir = stateDir();
      await useWordIndex(dir, VERSION, texts(BODIES)).save();
      const good = readFileSync(join(dir, WORD_INDEX_FILE));
      writeFileSync(join(dir, WORD_INDEX_FILE), Buffer.concat([good.subarray(0, good.length - 1), Buffer.from([good[good.length - 1] ^ 1])]));
      const more = { ...BODIES, g: 'A new note about token rotation.' };
      const asked: string[] = [];
      const index = useWordIndex(dir, VERSION, texts(more, asked));
      expect([index.status, asked]).toEqual(['read', ['g']]);
      await index.save();
      expect([index.status, asked]).toEqual(['rebuilt', ['g', ...Object.keys(BODIES)]]);
      const again: string[] = [];
      const read = useWordIndex(dir, VERSION, texts(more, again));
      expect([read.status, again]).toEqual(['read', []]);
      for (const query of QUERIES) expect(scores(more, query, (hash) => counter(read, hash))).toEqual(scores(more, query));
    });

    it('from another build', async () => {
      const dir = stateDir();
      await useWordIndex(dir, 'other:0', texts(BODIES)).save();
      const asked: string[] = [];
      const index = useWordIndex(dir, VERSION, texts(BODIES, asked));
      expect([index.status, asked.length]).toEqual(['rebuilt', Object.keys(BODIES).length]);
      await index.save();
      expect(useWordIndex(dir, VERSION, texts(BODIES)).status).toBe('read');
    });

    it('planted as a symbolic link: not followed when read, replaced (not written through) when saved', async () => {
      const dir = stateDir();
      const elsewhere = join(stateDir(), 'target.bin');
      // A valid index of other texts, so following the link would show in the answers.
      const other = stateDir();
      await useWordIndex(other, VERSION, texts({ a: 'planted planted planted' })).save();
      writeFileSync(elsewhere, readFileSync(join(other, WORD_INDEX_FILE)));
      const planted = readFileSync(elsewhere);
      symlinkSync(elsewhere, join(dir, WORD_INDEX_FILE));
      const asked: string[] = [];
      const index = useWordIndex(dir, VERSION, texts(BODIES, asked));
      expect([index.status, asked]).toEqual(['missing', Object.keys(BODIES)]);
      expect(counter(index, 'a')!('plant', ['plant'])).toBe(0);
      await index.save();
      expect(readFileSync(elsewhere)).toEqual(planted);
      expect(lstatSync(join(dir, WORD_INDEX_FILE)).isSymbolicLink()).toBe(false);
      expect(useWordIndex(dir, VERSION, texts(BODIES)).status).toBe('read');
    });
  });

  it('reads and writes nothing without a state folder', async () => {
    const index = useWordIndex(undefined, VERSION, texts(BODIES));
    await index.save();
    expect(index.status).toBe('missing');
    expect(existsSync(join(process.cwd(), WORD_INDEX_FILE))).toBe(false);
  });
});

describe('a word index built as texts are read', () => {
  it('keeps counts and slot gaps of several bytes, before and after it is written', async () => {
    const dir = stateDir();
    const builder = openWordIndex(dir, VERSION);
    // `rare` in the texts 0, 200 and 20,200 (gaps of 1, 2 and 3 varint bytes), 300 times in the last.
    const bodies = Array.from({ length: 20_201 }, (_, i) => (i === 0 ? 'rare once' : i === 200 ? 'rare rare filler' : i === 20_200 ? Array(300).fill('rare').join(' ') : `filler ${i}`));
    bodies.forEach((body, i) => builder.add(`h${i}`, body));
    const index = builder.use(texts(Object.fromEntries(bodies.map((body, i) => [`h${i}`, body]))));
    const counts = (of: typeof index) => [0, 1, 200, 20_200].map((i) => counter(of, `h${i}`)!('rare', ['rar']));
    expect(counts(index)).toEqual([1, 0, 2, 300]);
    await index.save();
    const again = useWordIndex(dir, VERSION, texts(Object.fromEntries(bodies.map((body, i) => [`h${i}`, body]))));
    expect([again.status, again.added, counts(again)]).toEqual(['read', 0, [1, 0, 2, 300]]);
  }, 20_000);

  it('answers and saves as one that asks for its texts', async () => {
    const dir = stateDir();
    const builder = openWordIndex(dir, VERSION);
    for (const [hash, text] of Object.entries(BODIES).slice(0, 4)) if (!builder.has(hash)) builder.add(hash, text);
    expect([builder.has('a'), builder.has('f')]).toEqual([true, false]);
    const asked: string[] = [];
    const index = builder.use(texts(BODIES, asked));
    // Only the texts not added as they were read are asked for.
    expect([index.added, asked]).toEqual([6, ['e', 'f']]);
    for (const query of QUERIES) expect(scores(BODIES, query, (hash) => counter(index, hash))).toEqual(scores(BODIES, query));
    await index.save();
    const again = useWordIndex(dir, VERSION, texts(BODIES));
    expect([again.status, again.added]).toEqual(['read', 0]);
    for (const query of QUERIES) expect(scores(BODIES, query, (hash) => counter(again, hash))).toEqual(scores(BODIES, query));
  });
});
