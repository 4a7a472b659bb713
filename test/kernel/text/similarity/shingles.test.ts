import { describe, expect, it } from 'vitest';
import { contentShingles, shingles } from '../../../../src/kernel/text/similarity.js';

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

  it('contentShingles leaves out headings and lines found in minFiles bodies, as splitting each body into trimmed lower-cased lines does', () => {
    const pieces = ['Alpha beta', 'GAMMA', 'none recorded', '# Title', '## Goal', '   # three spaces', '    # four spaces', '#nospace', '#', '\r', '\n', '\n', '\n', ' ', '\u00a0', '\u2028', 'İ', 'Σ', 'ΑΣ', '\uD835\uDC9C', '\uD800', 'x_y', '.', '\t'];
    let seed = 11;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const expected = (bodies: string[], minFiles: number) => {
      const files = new Map<string, Set<number>>();
      bodies.forEach((body, i) => {
        for (const line of body.toLowerCase().split('\n')) if (line.trim() !== '') files.set(line.trim(), (files.get(line.trim()) ?? new Set()).add(i));
      });
      const common = (line: string) => (files.get(line.trim())?.size ?? 0) >= minFiles;
      const kept = (body: string) => body.toLowerCase().split('\n').filter((line) => !/^\s{0,3}#{1,6}\s/.test(line) && !common(line));
      return bodies.map((body) => reference(kept(body).join('\n')));
    };
    for (let round = 0; round < 200; round++) {
      const bodies = Array.from({ length: 1 + Math.floor(next() * 12) }, () => Array.from({ length: Math.floor(next() * 40) }, () => pieces[Math.floor(next() * pieces.length)] + (next() < 0.5 ? ' ' : '')).join(''));
      for (const minFiles of [1, 2, 3]) expect(contentShingles(bodies, minFiles).map((set) => Array.from(set)), JSON.stringify(bodies)).toEqual(expected(bodies, minFiles));
    }
  });
});
