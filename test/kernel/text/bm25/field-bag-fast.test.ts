import { describe, expect, it } from 'vitest';
import { rng as random } from '../../../../bench/corpus.js';
import { stem, words } from '../../../../src/kernel/text/analyse.js';
import { fieldBag, type FieldBag } from '../../../../src/kernel/text/bm25.js';

// The plain regular-expression fieldBag that the counting in bm25.ts replaced: the reference it must match.
const RUN = /[\p{L}\p{N}\p{M}]+/gu;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const NON_ASCII = /[^\x00-\x7f]/;
const prefixOf = (term: string) => (term.length >= 4 ? term.slice(0, -1) : term);
const normalise = (word: string) => (word.length <= 1 ? word : stem(NON_ASCII.test(word) ? (words(word)[0] ?? word) : word));

function referenceBag(text: string): FieldBag | undefined {
  if (CJK.test(text)) return undefined;
  const runs = new Map<string, number>();
  for (const m of text.toLowerCase().matchAll(RUN)) runs.set(m[0], (runs.get(m[0]) ?? 0) + 1);
  const stems = new Map<string, number>();
  const odd: FieldBag['odd'] = [];
  for (const [word, n] of runs) {
    const s = normalise(word);
    if (word.startsWith(prefixOf(s))) stems.set(s, (stems.get(s) ?? 0) + n);
    else odd.push([word, s, n]);
  }
  let pairs = '';
  for (const [s, n] of stems) pairs += n === 1 ? ` ${s}` : ` ${s}:${n}`;
  return { length: text.length, stems: `${pairs} `, odd };
}

const ASCII_WORDS = ['token', 'Tokens', 'TOKEN', 'migration', 'migrating', 'Migrated', 'happy', 'happiness', 'aby', 'abi', 'does', 'doe', 'agreed', 'a', 'I', 'x9', '42', '007', 'authentication', 'Internationalization', 'running', 'runs', 'skies', 'sky', 'news', 'ys', 'ed', 'ing'];
const ASCII_GAPS = [' ', '  ', '\n', '\r\n', '\t', '.', ', ', '-', '_', "'", '`', '[[', ']](', '/', '#', '@', '~', '^', '|', '{', '}', '\\', '\0', '\x7f'];
const OTHER_WORDS = ['café', 'CAFÉ', 'cafe\u0301', 'Über', 'straße', 'STRASSE', 'İstanbul', 'ΟΔΟΣ', 'Σίσυφος', 'ς', 'Ωμέγα', 'релиз', 'Релизы', 'naïve', '²³', 'x²', '\u212a', 'ǅ', 'Ⅻ', '\u{1D41A}\u{1D41B}', 'a\u0301\u0302', '\u0301', 'Ǆungla', 'ﬁle', 'ŉ'];
const OTHER_GAPS = ['—', '→', '…', '\u00a0', '\u{1F600}', '\ud800', '\udc00', '\ud800x', '\u2028', '«', '»', '€', '\ufeff'];

function text(next: () => number, ascii: boolean): string {
  const pick = <T,>(a: readonly T[]) => a[Math.floor(next() * a.length)];
  let out = '';
  const n = Math.floor(next() * 60);
  for (let i = 0; i < n; i++) {
    const r = next();
    if (r < 0.45) out += pick(ASCII_WORDS);
    else if (r < 0.55) out += Array.from({ length: 1 + Math.floor(next() * 20) }, () => String.fromCharCode(33 + Math.floor(next() * 94))).join('');
    else if (r < 0.85 || ascii) out += pick(ASCII_GAPS);
    else if (r < 0.93) out += pick(OTHER_WORDS);
    else out += pick(OTHER_GAPS);
  }
  return out;
}

describe('fieldBag counts exactly as the plain regular expression does', () => {
  it('on random ASCII texts', () => {
    const next = random(1);
    for (let i = 0; i < 3000; i++) {
      const t = text(next, true);
      expect(fieldBag(t), JSON.stringify(t)).toEqual(referenceBag(t));
    }
  });

  it('on random texts with other scripts, marks, surrogates and case that depends on context', () => {
    const next = random(2);
    for (let i = 0; i < 3000; i++) {
      const t = text(next, false);
      expect(fieldBag(t), JSON.stringify(t)).toEqual(referenceBag(t));
    }
  });

  it('on the cases where lower-casing changes length or depends on the next letter', () => {
    for (const t of ['ΟΔΟΣ.Α ΟΔΟΣ. ΟΔΟΣ', 'İİ i\u0307', '\u212aelvin kelvin', 'ǅ Ǆ ǆ', 'ﬁle FILE', 'token 認証', '', ' ', 'a', 'A'.repeat(300), `${'x'.repeat(20)}é${'y'.repeat(20)}`, 'İ'.repeat(40_000), `${'İ'.repeat(40_000)} ${'İ'.repeat(40_000)}`]) {
      expect(fieldBag(t), JSON.stringify(t)).toEqual(referenceBag(t));
    }
  });

  it('on texts with more distinct words than the table first holds, and after it starts afresh', () => {
    for (const [from, to] of [
      [0, 70_000],
      [70_000, 140_000],
      [0, 100],
    ]) {
      const t = Array.from({ length: to - from }, (_, i) => `Word${from + i}xyzzy`).join(' ');
      expect(fieldBag(t)).toEqual(referenceBag(t));
    }
  });

  it('on long ASCII texts, below and above 1 MB, and with more distinct words than the shared table first holds', () => {
    const next = random(4);
    const pick = () => ['Token', 'tokens', 'TOKEN', 'a', 'b', 'x9', 'does', 'doe', `w${Math.floor(next() * 5000)}`][Math.floor(next() * 9)];
    for (const words of [3_000, 40_000, 400_000]) {
      const t = Array.from({ length: words }, pick).join(next() < 0.5 ? ' ' : '\n');
      expect(t.length > 1 << 20).toBe(words === 400_000);
      expect(fieldBag(t)).toEqual(referenceBag(t));
    }
    // More distinct words than the table first holds: it grows mid-text, and a word seen before and after adds up.
    const many = `Token doe ${Array.from({ length: 80_000 }, (_, i) => `k${i}`).join(' ')} token TOKEN does doe`;
    expect(fieldBag(many)).toEqual(referenceBag(many));
  });
});
