import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { contentHash } from '../../../src/kernel/tokens/hash.js';

describe('contentHash', () => {
  it('is the base64url SHA-1 of the text', () => {
    expect(contentHash('')).toBe('2jmj7l5rSw0yVb_vlWAYkK_YBwk');
    expect(contentHash('hello')).toBe('qvTGHdzF6KLavt4PO0gs2a6pQ00');
  });

  it('hashes the UTF-8 bytes, as createHash does', () => {
    for (const text of ['Größe 日本語 🙂', 'a\r\nb', 'x'.repeat(100_000)]) {
      expect(contentHash(text)).toBe(createHash('sha1').update(text).digest('base64url'));
    }
  });
});
