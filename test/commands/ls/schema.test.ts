import { describe, expect, it } from 'vitest';
import { LsOptions } from '../../../src/commands/ls/schema.js';
import { CLI_LABEL, parseInput } from '../../../src/kernel/schema.js';

describe('LsOptions', () => {
  it('takes the filters and the two flags', () => {
    const options = { type: 'other', kind: 'session', tag: 'auth', archive: true, unlisted: false };
    expect(parseInput(LsOptions, options, CLI_LABEL)).toEqual(options);
    expect(parseInput(LsOptions, {}, CLI_LABEL)).toEqual({});
  });

  it('refuses a flag that is not true or false and an unknown option, listing the known ones', () => {
    expect(() => parseInput(LsOptions, { archive: 'yes' }, CLI_LABEL)).toThrow('--archive must be true or false, got "yes"');
    let hint: string | undefined;
    try {
      parseInput(LsOptions, { sort: 'name' }, CLI_LABEL);
    } catch (err) {
      expect((err as Error).message).toBe('unknown option --sort');
      hint = (err as { hint?: string }).hint;
    }
    expect(hint).toBe('known: --type, --kind, --tag, --archive, --unlisted');
  });
});
