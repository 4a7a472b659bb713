import { describe, expect, it } from 'vitest';
import { DEFAULT_WAIT_MS, resolveCheckpoint } from '../../../src/commands/checkpoint/schema.js';
import { ARG_LABEL, CLI_LABEL } from '../../../src/kernel/schema.js';

describe('resolveCheckpoint', () => {
  it('settles the defaults: the configured thresholds, the MCP tool, a 3 s wait', () => {
    expect(resolveCheckpoint({}, CLI_LABEL)).toEqual({ at: undefined, cli: false, window: undefined, model: undefined, waitMs: DEFAULT_WAIT_MS });
    expect(DEFAULT_WAIT_MS).toBe(3000);
  });

  it('reads thresholds ascending without repeats, the window as given, the wait in milliseconds', () => {
    expect(resolveCheckpoint({ at: '95, 80,80', cli: true, window: '1m', model: 'sonnet[1m]', wait: 0 }, CLI_LABEL)).toEqual({ at: [80, 95], cli: true, window: '1m', model: 'sonnet[1m]', waitMs: 0 });
    expect(resolveCheckpoint({ window: 200000, wait: 30000 }, ARG_LABEL)).toMatchObject({ window: '200000', waitMs: 30000 });
  });

  it('names a bad value as the door spells its option', () => {
    expect(() => resolveCheckpoint({ at: '0' }, CLI_LABEL)).toThrow('--at takes percentages above 0 and at most 100, got "0"');
    expect(() => resolveCheckpoint({ at: '80,x' }, ARG_LABEL)).toThrow('at takes percentages above 0 and at most 100, got "80,x"');
    expect(() => resolveCheckpoint({ wait: 30001 }, CLI_LABEL)).toThrow('--wait must be a whole number from 0 to 30000, got 30001');
    expect(() => resolveCheckpoint({ wait: 1.5 }, CLI_LABEL)).toThrow('--wait must be a whole number from 0 to 30000, got 1.5');
    expect(() => resolveCheckpoint({ bogus: 1 }, CLI_LABEL)).toThrow(/bogus/);
  });
});
