import { describe, expect, it } from 'vitest';
import { DEFAULT_ENCODING, ENCODINGS, isEncodingName } from '../../../src/kernel/tokens/encodings.js';
import { createTokenCounter } from '../../../src/kernel/tokens/count.js';

describe('encodings', () => {
  it('names exactly the encodings memctx can count with, o200k_base by default', () => {
    expect([...ENCODINGS]).toEqual(['o200k_base', 'cl100k_base']);
    expect(DEFAULT_ENCODING).toBe('o200k_base');
    for (const name of ENCODINGS) expect(createTokenCounter(name).count('hello world')).toBe(2);
  });

  it('isEncodingName takes the names as written, nothing else', () => {
    expect(['o200k_base', 'cl100k_base', 'O200K_BASE', 'p50k_base', ''].map(isEncodingName)).toEqual([true, true, false, false, false]);
  });
});
