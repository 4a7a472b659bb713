import { describe, expect, it } from 'vitest';
import { SessionsOptions } from '../../../src/commands/sessions/schema.js';
import { CLI_LABEL, parseInput } from '../../../src/kernel/schema.js';

describe('SessionsOptions', () => {
  it('takes a field, a period and a limit', () => {
    expect(parseInput(SessionsOptions, { field: 'decisions', since: '2w', limit: 3 }, CLI_LABEL)).toEqual({ field: 'decisions', since: '2w', limit: 3 });
  });

  it('refuses a limit that is not a positive whole number, naming the flag', () => {
    expect(() => parseInput(SessionsOptions, { limit: 0 }, CLI_LABEL)).toThrow('--limit must be a positive whole number, got 0');
    expect(() => parseInput(SessionsOptions, { limit: '3' }, CLI_LABEL)).toThrow('--limit must be a positive whole number, got "3"');
    expect(() => parseInput(SessionsOptions, { fields: 'goal' }, CLI_LABEL)).toThrow('unknown option --fields');
  });
});
