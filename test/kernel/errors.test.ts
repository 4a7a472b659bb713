import { describe, expect, it } from 'vitest';
import { EXIT_PROBLEMS, EXIT_USAGE, formatLocation, MemctxError } from '../../src/kernel/errors.js';

describe('MemctxError', () => {
  it('is a usage error (exit 2) unless told otherwise, and prints as --json does', () => {
    const err = new MemctxError('bad frontmatter', { file: '.memory/a.md', line: 3, hint: 'fix the YAML' });
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe('MemctxError');
    expect(err.exitCode).toBe(EXIT_USAGE);
    expect(JSON.stringify(err)).toBe('{"error":{"message":"bad frontmatter","file":".memory/a.md","line":3,"hint":"fix the YAML","exitCode":2}}');
  });

  it('gives null for what it does not know, and keeps the exit code it is given', () => {
    expect(new MemctxError('lint found problems', { exitCode: EXIT_PROBLEMS }).toJSON()).toEqual({ error: { message: 'lint found problems', file: null, line: null, hint: null, exitCode: 1 } });
  });
});

describe('formatLocation', () => {
  it('is file:line, the file alone without a line, and nothing without a file', () => {
    expect(formatLocation('a.md', 4)).toBe('a.md:4');
    expect(formatLocation('a.md', undefined)).toBe('a.md');
    expect(formatLocation('a.md', 0)).toBe('a.md');
    expect(formatLocation(undefined, 4)).toBe('');
  });
});
