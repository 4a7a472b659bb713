import { describe, expect, it } from 'vitest';
import { shingles } from '../../src/text/similarity.js';

/** The words-then-hash definition the one-pass scanner must match. */
function reference(text: string): number[] {
  const hash = (word: string) => {
    let h = 0x811c9dc5;
    for (let i = 0; i < word.length; i++) {
      h ^= word.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    return h >>> 0;
  };
  const mix = (x: number) => {
    let h = x;
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
    return h >>> 0;
  };
  const hashes = (text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).map(hash);
  const all = new Set<number>();
  for (let i = 0; i + 3 <= hashes.length; i++) {
    let h = 0x9747b28c;
    for (let k = 0; k < 3; k++) h = mix(h ^ Math.imul(hashes[i + k], k + 1));
    all.add(h);
  }
  return [...all].sort((a, b) => a - b);
}

describe('shingles (one pass over the text)', () => {
  it('equals the words-then-hash definition on mixed scripts, astral characters, lone surrogates and punctuation', () => {
    const pieces = ['Straße', 'ΣΊΣΥΦΟΣ', 'naïve', '東京都', '𝒜𝓁𝓅𝒽𝒶', '😀', '\uD800', 'x\uDC00y', 'İstanbul', 'snake_case', '²³', 'Ⅻ', '٣٤', 'a-b', "it's", '—', '\t', '\n', ' ', '42', 'ǅemal'];
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    for (let t = 0; t < 300; t++) {
      const text = Array.from({ length: 1 + Math.floor(next() * 40) }, () => pieces[Math.floor(next() * pieces.length)] + (next() < 0.6 ? ' ' : '')).join('');
      expect(Array.from(shingles(text)), text).toEqual(reference(text));
    }
  });
});
