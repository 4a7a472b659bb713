import { describe, expect, it } from 'vitest';
import { resolveStatus, StatusInput } from '../../../src/kernel/capacity/schema.js';
import { CLI_LABEL } from '../../../src/kernel/schema.js';

describe('resolveStatus', () => {
  it('settles the defaults: 80/90/95 thresholds, o200k_base, no count', () => {
    expect(resolveStatus({})).toEqual({ transcript: undefined, window: undefined, model: undefined, failOn: undefined, thresholds: { yellow: 80, orange: 90, red: 95 }, count: false, format: undefined, encoding: 'o200k_base', startup: false, budget: undefined });
  });

  it('reads a window as a number or "200k", thresholds and the other choices', () => {
    expect(resolveStatus({ transcript: 's.jsonl', window: '1m', model: 'claude-opus-4-6', fail_on: 'orange', thresholds: '70, 85, 99', count: true, format: 'codex', encoding: 'cl100k_base' })).toEqual({
      transcript: 's.jsonl',
      window: 1_000_000,
      model: 'claude-opus-4-6',
      failOn: 'orange',
      thresholds: { yellow: 70, orange: 85, red: 99 },
      count: true,
      format: 'codex',
      encoding: 'cl100k_base',
      startup: false,
      budget: undefined,
    });
    expect(resolveStatus({ window: 200000 }).window).toBe(200_000);
  });

  it('names a bad value as the door spells its option', () => {
    expect(() => resolveStatus({ thresholds: '90,80' })).toThrow('thresholds takes three percentages (yellow,orange,red), got "90,80"');
    expect(() => resolveStatus({ thresholds: '1,2' }, CLI_LABEL)).toThrow('--thresholds takes three percentages (yellow,orange,red), got "1,2"');
    expect(() => resolveStatus({ fail_on: 'green' }, CLI_LABEL)).toThrow('--fail-on must be one of yellow, orange, red, got "green"');
    expect(() => resolveStatus({ model: 'gpt-unknown-9' })).toThrow('unknown model "gpt-unknown-9"');
  });

  it('takes only a transcript and a model through MCP', () => {
    expect(() => resolveStatus({ window: '200k' }, undefined, StatusInput)).toThrow('unknown argument window');
    expect(resolveStatus({ model: 'sonnet' }, undefined, StatusInput)).toMatchObject({ model: 'sonnet', window: undefined });
  });
});
