import { describe, expect, it } from 'vitest';
import { isRecord, ListedOrder } from '../../src/kernel/values.js';

describe('isRecord', () => {
  it('is true for objects only: not null, lists, strings or numbers', () => {
    expect([{}, { a: 1 }, Object.create(null)].map(isRecord)).toEqual([true, true, true]);
    expect([null, undefined, [], [1], 'a', 1, true].map(isRecord)).toEqual([false, false, false, false, false, false, false]);
  });
});

describe('ListedOrder', () => {
  it('finds keys asked in order without a map, and keys out of order, missing or past the end through one', () => {
    const keys = ['a', 'b', 'c', 'd'];
    const asked: number[] = [];
    const order = new ListedOrder(keys.length, (at) => (asked.push(at), keys[at]));
    expect(['a', 'b', 'c'].map((k) => order.find(k))).toEqual([0, 1, 2]);
    expect(asked).toEqual([0, 1, 2]);
    expect(order.find('a')).toBe(0);
    expect(asked).toEqual([0, 1, 2, 3, 0, 1, 2, 3]);
    expect([order.find('b'), order.find('x'), order.find('d'), order.find('d'), order.find('c')]).toEqual([1, -1, 3, 3, 2]);
    expect(asked.length).toBe(11);
  });

  it('keeps the guess of a pass in the cursor it is given, apart from the order\'s own', () => {
    const keys = ['a', 'b', 'c'];
    const asked: number[] = [];
    const order = new ListedOrder(keys.length, (at) => (asked.push(at), keys[at]));
    const pass = { next: 0 };
    expect([order.find('a', pass), order.find('b', pass)]).toEqual([0, 1]);
    expect(pass.next).toBe(2);
    expect([order.find('a'), order.find('b'), order.find('c', pass)]).toEqual([0, 1, 2]);
    expect(asked).toEqual([0, 1, 0, 1, 2]);
    expect(order.find('a', { next: 0 })).toBe(0);
  });

  it('finds items appended after it was made, before and after its map is built', () => {
    const keys = ['a', 'b'];
    const order = new ListedOrder(keys.length, (at) => keys[at]);
    keys.push('c');
    expect(order.append('c')).toBe(2);
    expect(order.find('c', { next: 2 })).toBe(2);
    expect(order.find('b', { next: 0 })).toBe(1);
    keys.push('d');
    expect(order.append('d')).toBe(3);
    expect([order.find('d', { next: 0 }), order.find('x', { next: 0 }), order.find('a', { next: 4 })]).toEqual([3, -1, 0]);
  });

  it('finds nothing in an empty list', () => {
    expect(new ListedOrder(0, () => 'a').find('a')).toBe(-1);
  });
});
