// kernel/text/unit-bytes.ts: a text as the low byte of each UTF-16 unit, in a buffer reused between calls.
import { describe, expect, it } from 'vitest';
import { unitBytes } from '../../../src/kernel/text/unit-bytes.js';

const first = (bytes: Uint8Array, n: number) => [...bytes.subarray(0, n)];

describe('unitBytes', () => {
  it('an ASCII text reads as its own bytes', () => {
    const text = 'Token: abc\t123\n';
    expect(first(unitBytes(text), text.length)).toEqual([...Buffer.from(text, 'ascii')]);
  });

  it('another unit reads as its low byte, one byte a unit (a surrogate pair is two)', () => {
    const text = 'é\u0141\u{1F600}';
    expect(first(unitBytes(text), text.length)).toEqual([0xe9, 0x41, 0x3d, 0x00]);
  });

  it('grows for a longer text and reads it whole, then serves a short one from the same buffer', () => {
    const long = 'ab'.repeat(50_000);
    const bytes = unitBytes(long);
    expect(bytes.length).toBeGreaterThanOrEqual(long.length);
    expect(bytes[0]).toBe(97);
    expect(bytes[long.length - 1]).toBe(98);
    expect(first(unitBytes('xy'), 2)).toEqual([120, 121]);
  });

  it('a text over 1 MB units gets its own array of exactly its length (the kept buffer stays small)', () => {
    const huge = 'q'.repeat((1 << 20) + 1);
    const bytes = unitBytes(huge);
    expect(bytes.length).toBe(huge.length);
    expect(bytes[huge.length - 1]).toBe(113);
    expect(unitBytes('z')).not.toBe(bytes);
  });
});
