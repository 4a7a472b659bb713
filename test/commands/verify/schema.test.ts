import { describe, expect, it } from 'vitest';
import { VerifyInput } from '../../../src/commands/verify/schema.js';
import { ARG_LABEL, parseInput } from '../../../src/kernel/schema.js';

describe('VerifyInput', () => {
  it('takes a list of memory files', () => {
    expect(parseInput(VerifyInput, { paths: ['/memories/a.md', 'b.md'] }, ARG_LABEL)).toEqual({ paths: ['/memories/a.md', 'b.md'] });
  });

  it('refuses an empty list, one holding something else than strings, and other arguments', () => {
    expect(() => parseInput(VerifyInput, { paths: [] }, ARG_LABEL)).toThrow('paths is empty');
    expect(() => parseInput(VerifyInput, { paths: ['a.md', 3] }, ARG_LABEL)).toThrow('paths must hold only strings, got number 3');
    expect(() => parseInput(VerifyInput, { paths: ['a.md'], all: true }, ARG_LABEL)).toThrow('unknown argument all');
  });
});
