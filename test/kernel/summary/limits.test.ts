import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX, DEFAULT_TARGET } from '../../../src/kernel/summary/limits.js';
import { DEFAULT_THRESHOLDS } from '../../../src/kernel/lint/config.js';

describe('session summary limits', () => {
  it('a summary is aimed at 500 tokens and shortened past 650, the size lint holds a session file to', () => {
    expect([DEFAULT_TARGET, DEFAULT_MAX]).toEqual([500, 650]);
    expect(DEFAULT_THRESHOLDS.sessionMaxTokens).toBe(DEFAULT_MAX);
  });
});
