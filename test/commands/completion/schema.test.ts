import { describe, expect, it } from 'vitest';
import { resolveCompletion, SHELLS } from '../../../src/commands/completion/schema.js';
import { MemctxError } from '../../../src/kernel/errors.js';

const refusal = (input: unknown) => {
  try {
    resolveCompletion(input);
  } catch (err) {
    return err instanceof MemctxError ? { message: err.message, hint: err.hint, exitCode: err.exitCode } : err;
  }
  return undefined;
};

describe('resolveCompletion', () => {
  it('takes bash, zsh and fish', () => {
    expect(SHELLS.map((shell) => resolveCompletion({ shell }))).toEqual(['bash', 'zsh', 'fish']);
  });

  it('refuses another shell as a usage error naming the value and the shells it writes for', () => {
    expect(refusal({ shell: 'tcsh' })).toEqual({ message: 'shell must be one of bash, zsh, fish, got "tcsh"', hint: undefined, exitCode: 2 });
    expect(refusal({ shell: 'bsh' })).toEqual({ message: 'shell must be one of bash, zsh, fish, got "bsh"', hint: 'did you mean shell "bash"?', exitCode: 2 });
    expect(refusal({})).toMatchObject({ message: 'missing argument shell', exitCode: 2 });
  });
});
