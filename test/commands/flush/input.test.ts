import { describe, expect, it } from 'vitest';
import { FlushInputError, parseFieldsText } from '../../../src/commands/flush/input.js';
import { MemctxError } from '../../../src/kernel/errors.js';

const failure = (text: string, format: 'json' | 'yaml') => {
  try {
    parseFieldsText(text, format);
  } catch (err) {
    expect(err).toBeInstanceOf(FlushInputError);
    expect(err).toBeInstanceOf(MemctxError);
    const e = err as FlushInputError;
    return { message: e.message, line: e.line, hint: e.hint };
  }
  throw new Error('no error');
};

describe('--from documents go through the store YAML entry point', () => {
  it('refuses __proto__ keys in YAML and JSON, naming the line', () => {
    expect(failure('goal: x\n__proto__: y\n', 'yaml')).toEqual({ message: 'the key `__proto__` is not allowed', line: 2, hint: 'rename or remove that key' });
    expect(failure('{\n"__proto__": "x"\n}', 'json')).toMatchObject({ message: 'the key `__proto__` is not allowed', line: 2 });
  });

  it('refuses an alias with no anchor and duplicate JSON keys, in the format named', () => {
    expect(failure('goal: *x\n', 'yaml').message).toBe('the alias *x has no anchor &x before it');
    expect(failure('{"goal": "a", "goal": "b"}', 'json')).toMatchObject({ message: expect.stringMatching(/^invalid JSON: .*unique/), hint: 'fix the JSON syntax' });
  });

  it('still folds a bounded alias', () => {
    expect(parseFieldsText('a: &x Ship\ngoal: *x\n', 'yaml').values.goal).toEqual(['Ship']);
  });
});
