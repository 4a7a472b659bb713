import { describe, expect, it } from 'vitest';
import { commandName } from '../src/main.js';

describe('commandName', () => {
  const argv = (...args: string[]) => ['node', 'memctx', ...args];

  it('finds the command after global options, skipping option values', () => {
    expect(commandName(argv('status', '--statusline'))).toBe('status');
    expect(commandName(argv('--dir', 'index', 'ls'))).toBe('ls');
    expect(commandName(argv('--json', '-q', 'index', '--check'))).toBe('index');
  });

  it('is undefined for help, unknown commands and no command, so every command is loaded', () => {
    expect(commandName(argv('help', 'status'))).toBeUndefined();
    expect(commandName(argv('nosuch'))).toBeUndefined();
    expect(commandName(argv('--help'))).toBeUndefined();
    expect(commandName(argv('--', 'ls'))).toBeUndefined();
  });
});
