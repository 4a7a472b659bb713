import { describe, expect, it } from 'vitest';
import { rng } from '../../../../bench/corpus.js';
import { fieldBag, wordsKey, wordsKeyOf } from '../../../../src/kernel/text/bm25.js';

const WORDS = ['Token', 'tokens', 'TOKENS', 'migration', 'migrated', 'happy', 'happiness', 'aby', 'ed', 'a', 'I', 'x9', '42', 'running', 'runs', 'skies', 'sky', 'café', 'Über', 'İstanbul', 'ΟΔΟΣ', '\u212aelvin', 'ﬁle', '\u0301x', '²'];
const GAPS = [' ', '\n', '\r\n', '.', ', ', '-', '_', "'", '[[', ']](', '/', '#', '\0', '\x7f', '—', '…', '\u{1F600}', '\ud800'];

function text(next: () => number, ascii: boolean): string {
  const pick = <T,>(a: readonly T[]) => a[Math.floor(next() * a.length)];
  const words = ascii ? WORDS.filter((w) => /^[\x00-\x7f]*$/.test(w)) : WORDS;
  const gaps = ascii ? GAPS.filter((g) => /^[\x00-\x7f]*$/.test(g)) : GAPS;
  let out = '';
  for (let i = Math.floor(next() * 80); i > 0; i--) out += next() < 0.6 ? pick(words) : pick(gaps);
  return out;
}

describe('wordsKey', () => {
  it('is the key of the text’s bag, on random ASCII texts (read without bagging) and others (read from the bag)', () => {
    const next = rng(3);
    for (let i = 0; i < 4000; i++) {
      const t = text(next, i % 2 === 0);
      const bag = fieldBag(t);
      expect(wordsKey(t), JSON.stringify(t)).toEqual(bag ? wordsKeyOf(bag) : null);
    }
  });

  it('is the same for texts with the same words in another order, case or spacing, and differs for another word', () => {
    const a = wordsKey('Token tokens migration. Happy runs');
    expect(wordsKey('migration,TOKEN token — happy\nRuns')).toEqual(a);
    expect(wordsKey('migration, TOKEN token  happy\nRuns ')).not.toEqual(a); // another length
    expect(wordsKey('Token tokens migration. Happy guns')).not.toEqual(a);
    expect(wordsKey('token 認証')).toBeNull();
  });
});
