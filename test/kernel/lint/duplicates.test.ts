import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_POSTING, MIN_SHINGLES, containment, jaccard, shingles, similarPairs } from '../../../src/kernel/text/similarity.js';

function bruteForce(sets: Uint32Array[], threshold: number): string[] {
  const out: string[] = [];
  for (let a = 0; a < sets.length; a++) {
    for (let b = a + 1; b < sets.length; b++) {
      if (sets[a].length < MIN_SHINGLES || sets[b].length < MIN_SHINGLES) continue;
      const s = jaccard(sets[a], sets[b]);
      if (s >= threshold - 1e-9) out.push(`${a}-${b}:${s.toFixed(6)}`);
    }
  }
  return out;
}

describe('near-duplicate detection', () => {
  it('shingles are word 3-grams, case- and punctuation-insensitive, deduplicated and sorted', () => {
    const a = shingles('The cat sat on the mat.');
    expect(a.length).toBe(4);
    expect(Array.from(a)).toEqual([...a].sort((x, y) => x - y));
    expect(Array.from(shingles('the CAT, sat; on THE mat'))).toEqual(Array.from(a));
    expect(shingles('two words').length).toBe(0);
    expect(shingles('a b c a b c a b c').length).toBe(3);
  });

  it('jaccard is exact', () => {
    expect(jaccard(Uint32Array.of(1, 2, 3, 4), Uint32Array.of(3, 4, 5))).toBeCloseTo(2 / 5, 12);
    expect(jaccard(Uint32Array.of(1, 2), Uint32Array.of(1, 2))).toBe(1);
    expect(jaccard(Uint32Array.of(1), Uint32Array.of(2))).toBe(0);
  });

  it('finds exactly the pairs a comparison of every pair finds (random sets over a small universe)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uniqueArray(fc.integer({ min: 0, max: 40 }), { minLength: 0, maxLength: 30 }), { minLength: 2, maxLength: 30 }),
        fc.constantFrom(0.5, 0.7, 0.85, 0.9, 1),
        (lists, threshold) => {
          const sets = lists.map((l) => Uint32Array.from(l).sort());
          const fast = similarPairs(sets, threshold).map((p) => `${p.a}-${p.b}:${p.similarity.toFixed(6)}`);
          expect(fast).toEqual(bruteForce(sets, threshold));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('with a vocabulary so small that every shingle is in many texts (template-made files), LSH finds the same pairs as comparing every pair', () => {
    const words = 'alpha beta gamma delta epsilon zeta'.split(' ');
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const texts = Array.from({ length: 400 }, () => Array.from({ length: 60 }, () => words[Math.floor(rand() * words.length)]).join(' '));
    for (const i of [3, 50, 170]) texts.push(texts[i].replace(/^(\S+ \S+)/, 'omega omega'));
    const sets = texts.map((t) => shingles(t));
    // the index alone would not find them: their shingles are in more texts than it indexes
    const counts = new Map<number, number>();
    for (const set of sets) for (const h of set) counts.set(h, (counts.get(h) ?? 0) + 1);
    expect(Math.min(...sets[3].map((h) => counts.get(h)!))).toBeGreaterThan(MAX_POSTING);
    const brute: string[] = [];
    for (let a = 0; a < sets.length; a++) for (let b = a + 1; b < sets.length; b++) if (jaccard(sets[a], sets[b]) >= 0.85) brute.push(`${a}-${b}`);
    expect(brute).toEqual(expect.arrayContaining(['3-400', '50-401', '170-402']));
    expect(similarPairs(sets, 0.85).map((p) => `${p.a}-${p.b}`)).toEqual(brute);
    const contained: string[] = [];
    for (let a = 0; a < sets.length; a++) for (let b = a + 1; b < sets.length; b++) if (jaccard(sets[a], sets[b]) >= 0.85 || containment(sets[a], sets[b]) >= 0.8) contained.push(`${a}-${b}`);
    expect(similarPairs(sets, 0.85, 0.8).map((p) => `${p.a}-${p.b}`)).toEqual(contained);
  });

  it('finds edited copies among many unrelated texts, and nothing else', () => {
    const words = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega'.split(' ');
    let seed = 1;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const texts = Array.from({ length: 300 }, () => Array.from({ length: 120 }, () => words[Math.floor(rand() * words.length)]).join(' '));
    texts.push(`${texts[10]} extra`, texts[20].replace(/^(\S+)/, 'changed'));
    const pairs = similarPairs(texts.map((t) => shingles(t)), 0.85).map((p) => [p.a, p.b]);
    expect(pairs).toEqual([[10, 300], [20, 301]]);
  });
});
