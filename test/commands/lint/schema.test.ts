import { describe, expect, it } from 'vitest';
import { LintInput, LintOptions } from '../../../src/commands/lint/schema.js';
import { ARG_LABEL, CLI_LABEL, parseInput } from '../../../src/kernel/schema.js';

describe('LintOptions', () => {
  it('takes the CLI flags', () => {
    const options = { files: ['a.md'], fix: true, format: 'sarif', max_warnings: 0, output_file: 'out.sarif', config: 'c.json', print_config: false };
    expect(parseInput(LintOptions, options, CLI_LABEL)).toEqual(options);
  });

  it('refuses an unknown format with the closest one, and a negative warning count', () => {
    let hint: string | undefined;
    try {
      parseInput(LintOptions, { format: 'sarfi' }, CLI_LABEL);
    } catch (err) {
      expect((err as Error).message).toBe('--format must be one of stylish, json, github, sarif, got "sarfi"');
      hint = (err as { hint?: string }).hint;
    }
    expect(hint).toBe('did you mean --format sarif?');
    expect(() => parseInput(LintOptions, { max_warnings: -1 }, CLI_LABEL)).toThrow('--max-warnings must be a whole number of at least 0, got -1');
  });
});

describe('LintInput', () => {
  it('takes only a rule and a path through MCP', () => {
    expect(parseInput(LintInput, { rule: 'security/secret', path: '/memories/sessions' }, ARG_LABEL)).toEqual({ rule: 'security/secret', path: '/memories/sessions' });
    expect(() => parseInput(LintInput, { fix: true }, ARG_LABEL)).toThrow('unknown argument fix');
  });
});
