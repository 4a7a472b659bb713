import { describe, expect, it } from 'vitest';
import { claudeUsedTokens, tokenField } from '../../../src/kernel/transcript/usage-fields.js';

describe('tokenField', () => {
  it('takes a finite, non-negative number, rounded', () => {
    expect(tokenField(12.6)).toEqual({ ok: true, value: 13 });
    expect(tokenField(0)).toEqual({ ok: true, value: 0 });
  });

  it('says why anything else is refused', () => {
    expect(tokenField(undefined)).toEqual({ ok: false, reason: 'missing' });
    expect(tokenField('12')).toEqual({ ok: false, reason: 'not a number ("12")' });
    expect(tokenField(null)).toEqual({ ok: false, reason: 'not a number (null)' });
    expect(tokenField(Number.POSITIVE_INFINITY)).toEqual({ ok: false, reason: 'not finite' });
    expect(tokenField(-3)).toEqual({ ok: false, reason: 'negative (-3)' });
  });
});

describe('claudeUsedTokens', () => {
  it('adds input, cache creation and cache read; output is not in the context', () => {
    expect(claudeUsedTokens({ input_tokens: 10, cache_creation_input_tokens: 200, cache_read_input_tokens: 3000, output_tokens: 99 })).toEqual({ ok: true, used: 3210 });
    expect(claudeUsedTokens({ input_tokens: 7, cache_read_input_tokens: null })).toEqual({ ok: true, used: 7 });
  });

  it('says why a usage cannot be read', () => {
    expect(claudeUsedTokens(null)).toEqual({ ok: false, reason: 'usage is not an object' });
    expect(claudeUsedTokens([1])).toEqual({ ok: false, reason: 'usage is not an object' });
    expect(claudeUsedTokens({ output_tokens: 5 })).toEqual({ ok: false, reason: 'it has no input_tokens or cache token fields' });
    expect(claudeUsedTokens({ input_tokens: -1 })).toEqual({ ok: false, reason: 'input_tokens is negative (-1)' });
  });
});
