import { describe, expect, it } from 'vitest';
import { ADVICE, atLeast, bar, capacity, formatPercent, levelFor, thresholdsProblem } from '../../../src/kernel/capacity/index.js';

describe('levels', () => {
  it('puts the boundaries where design §6 does: <80 green, 80-89 yellow, 90-94 orange, ≥95 red', () => {
    const cases: [number, string][] = [[0, 'green'], [79.99, 'green'], [80, 'yellow'], [89.99, 'yellow'], [90, 'orange'], [94.99, 'orange'], [95, 'red'], [130, 'red']];
    for (const [p, level] of cases) expect([p, levelFor(p)]).toEqual([p, level]);
  });
  it('computes used / window and the advice', () => {
    expect(capacity(161_506, 200_000)).toEqual({ used: 161_506, window: 200_000, percent: 80.753, level: 'yellow', advice: ADVICE.yellow });
    expect(capacity(190_000, 200_000).advice).toBe('Emergency compaction: compact now and shed low-priority content.');
    expect(capacity(180_000, 200_000).advice).toBe('Compact now, before the next major operation; defer non-critical file loads.');
    expect(capacity(159_999, 200_000).level).toBe('green');
  });
  it('takes configurable thresholds and refuses unusable ones', () => {
    expect(capacity(70, 100, { yellow: 60, orange: 70, red: 90 }).level).toBe('orange');
    expect(thresholdsProblem({ yellow: 80, orange: 90, red: 95 })).toBeUndefined();
    expect(thresholdsProblem({ yellow: 90, orange: 80, red: 95 })).toBe('thresholds must rise: yellow < orange < red, got 90, 80, 95');
    expect(thresholdsProblem({ yellow: 0, orange: 80, red: 95 })).toBe('the yellow threshold must be a percentage above 0 and at most 100, got 0');
    expect(thresholdsProblem({ yellow: 50, orange: 80, red: 101 })).toBe('the red threshold must be a percentage above 0 and at most 100, got 101');
  });
  it('refuses a window of 0 or less and negative usage', () => {
    expect(() => capacity(10, 0)).toThrow('the context window must be a positive number of tokens, got 0');
    expect(() => capacity(10, -5)).toThrow(RangeError);
    expect(() => capacity(-1, 100)).toThrow('used tokens must be zero or more, got -1');
  });
  it('orders levels for --fail-on', () => {
    expect(atLeast('orange', 'yellow')).toBe(true);
    expect(atLeast('yellow', 'yellow')).toBe(true);
    expect(atLeast('yellow', 'orange')).toBe(false);
    expect(atLeast('green', 'yellow')).toBe(false);
  });
  it('formats percentages rounded down and bars capped at full', () => {
    expect(formatPercent(89.96)).toBe('89.9%');
    expect(formatPercent(0)).toBe('0.0%');
    expect(bar(50, 10)).toEqual({ filled: '█████', empty: '░░░░░' });
    expect(bar(250, 4)).toEqual({ filled: '████', empty: '' });
  });
});
