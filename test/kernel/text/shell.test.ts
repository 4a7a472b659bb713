import { describe, expect, it } from 'vitest';
import { shellWord } from '../../../src/kernel/text/shell.js';

describe('shellWord', () => {
  it('leaves a word of safe characters bare', () => {
    expect(shellWord('notes/project_auth.md')).toBe('notes/project_auth.md');
    expect(shellWord('--budget=2000')).toBe('--budget=2000');
    expect(shellWord('a@b%c+d,e:f')).toBe('a@b%c+d,e:f');
  });

  it('single-quotes anything else, a quote inside as quote, backslash-quote, quote', () => {
    expect(shellWord('two words')).toBe("'two words'");
    expect(shellWord('')).toBe("''");
    expect(shellWord('$HOME')).toBe("'$HOME'");
    expect(shellWord("it's")).toBe("'it'\\''s'");
    expect(shellWord('a;rm -rf ~')).toBe("'a;rm -rf ~'");
  });
});
