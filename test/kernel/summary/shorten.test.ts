import { describe, expect, it } from 'vitest';
import { shortenToFit } from '../../../src/kernel/summary/shorten.js';

describe('shortening', () => {
  const measure = (v: Record<string, string[]>) => Object.values(v).flat().join('\n').length;

  it('does nothing when it fits', () => {
    const r = shortenToFit({ a: ['x', 'y'] }, ['a'], measure, 100);
    expect(r).toEqual({ values: { a: ['x', 'y'] }, tokens: 3, cuts: [], fits: true });
  });

  it('takes items off the first field in cut order, keeping the most that fit', () => {
    const values = { keep: ['k'.repeat(20)], cut: Array.from({ length: 10 }, (_, i) => `item-${i}`) };
    const r = shortenToFit(values, ['cut', 'keep'], measure, 60);
    expect(r.values.keep).toEqual(values.keep);
    expect(r.values.cut).toEqual(['item-0', 'item-1', '[… 8 more left out]']);
    expect(r.cuts).toEqual([{ field: 'cut', what: 'items', kept: 2, total: 10 }]);
    expect(r.tokens).toBeLessThanOrEqual(60);
  });

  it('long lines first to 100 characters, then lines, then characters, and is deterministic', () => {
    const values = { a: [`${'word '.repeat(40)}\nline2\nline3\nline4`] };
    const r1 = shortenToFit(values, ['a'], measure, 80);
    const r2 = shortenToFit(values, ['a'], measure, 80);
    expect(r1).toEqual(r2);
    expect(r1.cuts.map((c) => c.what)).toEqual(['characters', 'lines', 'characters']);
    expect(r1.cuts[0]).toMatchObject({ field: 'a', what: 'characters', kept: 100 });
    expect(r1.fits).toBe(true);
    expect(r1.values.a[0].split('\n')[0].endsWith('…')).toBe(true);
  });
});
