import { describe, expect, it } from 'vitest';
import { detectFormat, FlushInputError, parseFieldsText } from '../../../../src/commands/flush/input.js';

describe('--from parsing', () => {
  it('reads YAML strings, numbers and lists under normalized keys', () => {
    const parsed = parseFieldsText('goal: Ship auth\nchanged_files:\n  - src/a.ts\n  - 42\nnext-steps: Review\n', 'yaml');
    expect(parsed.values).toEqual({ goal: ['Ship auth'], changedFiles: ['src/a.ts', '42'], nextSteps: ['Review'] });
    expect(parsed.keys.map((k) => [k.key, k.line])).toEqual([['goal', 1], ['changed_files', 2], ['next-steps', 5]]);
  });

  it('reads JSON', () => {
    expect(parseFieldsText('{"goal": "G", "decisions": ["a", "b"]}', 'json').values).toEqual({ goal: ['G'], decisions: ['a', 'b'] });
  });

  it('detects the format from the name, else from the first character', () => {
    expect([detectFormat('x.json', 'goal: x'), detectFormat('x.yml', '{}'), detectFormat(undefined, '  {"a":1}'), detectFormat(undefined, 'goal: x')]).toEqual(['json', 'yaml', 'json', 'yaml']);
  });

  const failure = (text: string, format: 'json' | 'yaml') => {
    try {
      parseFieldsText(text, format);
    } catch (err) {
      expect(err).toBeInstanceOf(FlushInputError);
      return { message: (err as FlushInputError).message, line: (err as FlushInputError).line };
    }
    throw new Error('no error');
  };

  it('names the line of malformed JSON, including a trailing comma YAML would accept', () => {
    expect(failure('{\n  "goal": "x",\n  "progress": [1, 2,]\n}\n', 'json')).toEqual({ message: "invalid JSON: Unexpected token ']'", line: 3 });
    expect(failure('{\n"goal": x\n}', 'json').line).toBe(2);
    expect(failure('{\n  "goal": "x"\n', 'json').line).toBe(3);
  });

  it('names the line of malformed YAML', () => {
    expect(failure('goal: x\nprogress: [a\nnext: b\n', 'yaml').line).toBe(3);
    expect(failure('goal: x\ngoal: y\n', 'yaml').message).toMatch(/unique/);
  });

  it('refuses a document that is not a mapping, and nested values, with their line', () => {
    expect(failure('- a\n- b\n', 'yaml')).toEqual({ message: 'the document must be a mapping of field names to values', line: 1 });
    expect(failure('goal: x\nprogress:\n  nested: 1\n', 'yaml')).toEqual({ message: '`progress` must be a string or a list of strings', line: 3 });
  });
});
