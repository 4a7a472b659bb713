import { describe, expect, it } from 'vitest';
import { isRecord } from '../../src/kernel/values.js';

describe('isRecord', () => {
  it('is true for objects only: not null, lists, strings or numbers', () => {
    expect([{}, { a: 1 }, Object.create(null)].map(isRecord)).toEqual([true, true, true]);
    expect([null, undefined, [], [1], 'a', 1, true].map(isRecord)).toEqual([false, false, false, false, false, false, false]);
  });
});
