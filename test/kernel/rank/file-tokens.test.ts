import { cpSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { textBounds, tokenBounds } from '../../../src/kernel/rank/file-tokens.js';
import { neutralizeControls } from '../../../src/kernel/markdown/escape.js';
import { removeDir, tempDir } from '../../helpers/cli.js';
import { tiktoken } from '../../helpers/tiktoken.js';

const NOW = new Date('2026-11-22T12:00:00Z');
const PAST = new Date('2026-01-01T00:00:00Z');
let dir = '';
afterEach(() => removeDir(dir));

/** A deterministic generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TRICKY = [
  '',
  'word',
  "don't you'll I'M it's",
  '.\n/\n/x a.\n/b',
  'https://example.com/a/b?c=1&d=2 path/to/file.md',
  '1234567890 12,345.67 v2.0.1',
  'CamelCaseWords and_snake_case and-kebab',
  '    indented\n\t\ttabs\r\n\r\nwindows',
  '================================================================',
  'café naïve Über straße 東京 日本語のテキスト 😀👍 x😀y',
  '\u00a0non\u00a0breaking\u3000ideographic space',
  '```ts\nconst x = (a: number) => a * 2; // comment\n```\n',
  '- [ ] TODO: item\n- [x] BLOCKER — done\n> quote',
];

/** The bundle module as it was before counting on demand: every token count asked for is counted (no bounds). */
async function exactBundle(): Promise<typeof import('../../../src/kernel/bundle/bundle.js')> {
  vi.resetModules();
  vi.doMock('../../../src/kernel/rank/file-tokens.js', async (importOriginal) => {
    const actual = await importOriginal<typeof import('../../../src/kernel/rank/file-tokens.js')>();
    return { ...actual, lazyTokens: (count: (i: number) => number, _bounds: unknown, n: number) => actual.lazyTokens(count, () => undefined, n) };
  });
  const exact = await import('../../../src/kernel/bundle/bundle.js');
  vi.doUnmock('../../../src/kernel/rank/file-tokens.js');
  return exact;
}

describe('token bounds known without counting', () => {
  it('hold every text between them, in both encodings (checked with js-tiktoken)', () => {
    const r = rng(7);
    const alphabet = [...'abcXYZ019 \t\n\r.,;:/\'"-_=+*#()[]{}<>!?@&%$', 'é', 'ß', '東', '😀', '\u00a0', '\u0301', "'s", "'ll"];
    const random = Array.from({ length: 150 }, () => Array.from({ length: 1 + Math.floor(r() * 80) }, () => alphabet[Math.floor(r() * alphabet.length)]).join(''));
    for (const text of [...TRICKY, ...random]) {
      const { min, max } = tokenBounds(text);
      for (const encoder of [tiktoken.o200k_base, tiktoken.cl100k_base]) {
        const n = encoder.encode(text).length;
        expect(min, JSON.stringify(text)).toBeLessThanOrEqual(n);
        expect(max, JSON.stringify(text)).toBeGreaterThanOrEqual(n);
      }
    }
  });

  it('hold a 200 KB line of words', () => {
    const text = Array.from({ length: 30_000 }, (_, i) => `w${i % 97}ord`).join(' ');
    const n = tiktoken.o200k_base.encode(text).length;
    const { min, max } = tokenBounds(text);
    expect([min <= n, n <= max, min]).toEqual([true, true, 30_000]);
  });

  it('count each whitespace-separated run holding an ASCII letter or digit once, for every UTF-16 unit', () => {
    const runs = (text: string) => text.split(/[\t\n\v\f\r ]/).filter((run) => /[A-Za-z0-9]/.test(run)).length;
    const texts: string[] = [...TRICKY];
    for (let unit = 0; unit < 65536; unit++) {
      const c = String.fromCharCode(unit);
      texts.push(`a${c}b ${c} ${c}1${c}`);
    }
    const wrong = texts.filter((text) => tokenBounds(text).min !== runs(text));
    expect(wrong.map((text) => JSON.stringify(text))).toEqual([]);
  });

  it('tell, in the same pass, whether a text holds a control neutralizeControls replaces, for every UTF-16 unit', () => {
    const wrong: string[] = [];
    for (let unit = 0; unit < 65536; unit++) {
      const text = `a${String.fromCharCode(unit)}b`;
      const seen = textBounds(text);
      if (seen.controls !== (neutralizeControls(text) !== text) || seen.bounds.min !== tokenBounds(text).min) wrong.push(JSON.stringify(text));
    }
    expect(wrong).toEqual([]);
    expect(textBounds('plain words\tand\nlines\n')).toEqual({ bounds: { min: 4, max: 22 }, controls: false });
    expect(textBounds('x\u001b[31m y\u009b')).toEqual({ bounds: { min: 2, max: 10 }, controls: true });
  });

  it('count a prose text closely enough to tell a file from a small room', () => {
    expect(tokenBounds('The quick brown fox jumps over the lazy dog.\n')).toEqual({ min: 9, max: 45 });
  });
});

/** A memory of 60 notes of varied length (a dozen mention the task's words) and one 200 KB line. */
function memory(): string {
  dir = tempDir('memctx-count-on-demand-');
  const root = join(dir, 'base/.memory');
  const r = rng(11);
  const words = 'garden weather recipe river stone cloud lamp window harbour lantern orchard meadow'.split(' ');
  const files: Record<string, string> = { 'MEMORY.md': '# Memory\n' };
  for (let i = 0; i < 60; i++) {
    const sentences = Array.from({ length: 2 + Math.floor(r() * 40) }, () => `${Array.from({ length: 8 }, () => words[Math.floor(r() * words.length)]).join(' ')}.`);
    if (i % 5 === 0) sentences.splice(Math.floor(r() * sentences.length), 0, 'The deploy rollback needs the auth token rotated first.');
    files[`${i % 4 === 0 ? 'sessions/' : ''}note-${i}.md`] = `---\nname: note ${i}\ndescription: notes on ${words[i % words.length]}\ntype: project\nupdated: 2026-0${1 + (i % 9)}-10\n---\n\n${sentences.join(i % 3 ? ' ' : '\n\n')}\n`;
  }
  // A single 200 KB line that mentions the task now and then.
  files['big/one-line.md'] = `---\nname: one line\n---\n${Array.from({ length: 4000 }, (_, i) => (i % 500 === 7 ? 'the deploy rollback' : words[i % words.length])).join(' ').padEnd(200_000, ' lamp')}\n`;
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
    utimesSync(join(root, path), PAST, PAST);
  }
  return root;
}

type PackModule = typeof import('../../../src/kernel/bundle/bundle.js');

/** `pack --task` on a fresh copy of the memory (a cold state folder). */
async function packCopy(mod: PackModule, base: string, name: string, budget: number) {
  const root = join(dir, name, '.memory');
  cpSync(base, root, { recursive: true, preserveTimestamps: true });
  const out = join(dir, name, 'bundle.md');
  const result = await mod.pack({ root, budget, task: 'deploy rollback auth token', format: 'markdown', encoding: 'o200k_base', out }, { now: () => NOW, env: {} });
  return { result, written: readFileSync(out, 'utf8') };
}

const chosen = (files: readonly { path: string; tier: string; bundleTokens: number; note?: string }[]) =>
  files.filter((f) => f.tier !== 'none' && f.tier !== 'index').map((f) => `${f.path} ${f.tier} ${f.bundleTokens} ${f.note ?? ''}`);

describe('pack --task counts only the files that may enter the bundle', () => {
  it('chooses what counting every file chooses, stays exact and within the budget, and counts fewer files', async () => {
    const base = memory();
    const lazy = await import('../../../src/kernel/bundle/bundle.js');
    const results = [];
    for (const budget of [200, 700, 1800, 5000]) results.push({ budget, ...(await packCopy(lazy, base, `lazy-${budget}`, budget)) });
    // The reference: every token count asked for is counted (no bounds), as before counting on demand.
    const exact = await exactBundle();
    for (const { budget, result, written } of results) {
      const reference = await packCopy(exact, base, `exact-${budget}`, budget);
      expect(written).toBe(reference.written);
      expect(chosen(result.files)).toEqual(chosen(reference.result.files));
      expect(result.tokens).toBe(tiktoken.o200k_base.encode(written).length);
      expect(result.tokens).toBeLessThanOrEqual(budget);
      // The reference counts every file asked about; counting on demand, fewer than the 61, the rest marked as estimates.
      expect(reference.result.files.filter((f) => f.estimated)).toEqual([]);
      const counted = result.files.filter((f) => !f.estimated);
      expect(counted.length).toBeGreaterThan(0);
      // Not the notes of files left out (counting each to say whether it exceeds the whole budget), nor matched files below the best 200 pieces;
      // unmatched files only as they are tried, in rank order, for the room the task's files left (at 1,800 tokens one of them goes in).
      expect(counted.length).toBeLessThanOrEqual(30);
      expect(result.estimated).toBe(true);
    }
  });
});

/** A memory of 60 notes of 1–4 KB, every one of which mentions the task's words. */
function matchingMemory(): string {
  dir = tempDir('memctx-count-candidates-');
  const root = join(dir, 'base/.memory');
  const r = rng(23);
  const words = 'garden weather recipe river stone cloud lamp window harbour lantern orchard meadow'.split(' ');
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'MEMORY.md'), '# Memory\n');
  for (let i = 0; i < 60; i++) {
    const sentences = Array.from({ length: 20 + Math.floor(r() * 60) }, () => `${Array.from({ length: 8 }, () => words[Math.floor(r() * words.length)]).join(' ')}.`);
    sentences.splice(Math.floor(r() * sentences.length), 0, `The deploy rollback needs the auth token rotated first (${i}).`);
    const path = join(root, `note-${i}.md`);
    writeFileSync(path, `---\nname: note ${i}\ndescription: notes on ${words[i % words.length]}\ntype: project\nupdated: 2026-0${1 + (i % 9)}-10\n---\n\n${sentences.join(' ')}\n`);
    utimesSync(path, PAST, PAST);
  }
  return root;
}

describe('pack --task counts a matched note only when it comes up best', () => {
  it('places what counting every candidate places, but counts few of the 60 notes the task matches', async () => {
    const base = matchingMemory();
    vi.resetModules();
    const lazy = await import('../../../src/kernel/bundle/bundle.js');
    for (const budget of [6000]) {
      const { result, written } = await packCopy(lazy, base, `lazy-${budget}`, budget);
      const exact = await exactBundle();
      const reference = await packCopy(exact, base, `exact-${budget}`, budget);
      expect(written).toBe(reference.written);
      expect(chosen(result.files)).toEqual(chosen(reference.result.files));
      expect(result.tokens).toBe(tiktoken.o200k_base.encode(written).length);
      expect(result.tokens).toBeLessThanOrEqual(budget);
      const whole = result.files.filter((f) => f.tier === 'full').length;
      const counted = result.files.filter((f) => !f.estimated).length;
      // Each whole note, and the few that came up best and proved too large for the room or their share: not all 60 (counted before).
      expect([whole > 0, counted <= whole + 10]).toEqual([true, true]);
    }
  });
});
