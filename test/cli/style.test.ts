import { Chalk, type ChalkInstance } from 'chalk';
import { describe, expect, it } from 'vitest';
import { createStyle, type Style } from '../../src/cli/ui/style.js';

/** Every style chain memctx uses, applied to a Style and to chalk alike. */
const CHAINS: Array<(s: Style | ChalkInstance) => (...text: unknown[]) => string> = [
  (s) => s,
  (s) => s.bold,
  (s) => s.dim,
  (s) => s.underline,
  (s) => s.red,
  (s) => s.green,
  (s) => s.yellow,
  (s) => s.yellowBright,
  (s) => s.magenta,
  (s) => s.cyan,
  (s) => s.red.bold,
  (s) => s.yellow.bold,
  (s) => s.bold.dim,
  (s) => s.ansi256(208),
  (s) => s.ansi256(208).bold,
  (s) => s.dim.ansi256(12),
];

const TEXTS: unknown[][] = [
  ['plain'],
  [''],
  ['two', 'words'],
  [42],
  [undefined],
  ['line one\nline two\r\nline three\n'],
  ['\r\r\n\n'],
  ['outer \u001b[39mafter a colour close\u001b[22m and a bold close'],
  ['nested \u001b[1mbold\u001b[22m and \u001b[2mdim\u001b[22m\nnext line \u001b[38;5;208morange\u001b[39m'],
];

describe('createStyle', () => {
  it('writes what chalk writes, at every level, for every chain memctx uses', () => {
    for (const level of [0, 1, 2, 3] as const) {
      const ours = createStyle(level);
      const chalk = new Chalk({ level });
      expect(ours.level).toBe(level);
      CHAINS.forEach((chain, i) => {
        for (const text of TEXTS) expect([level, i, text, chain(ours)(...text)]).toEqual([level, i, text, chain(chalk)(...text)]);
      });
      // a style nested in another, as the status report nests bold in a level colour
      expect(ours.green(`a ${ours.bold('b')} c`)).toBe(chalk.green(`a ${chalk.bold('b')} c`));
      expect(ours.ansi256(208)(ours.dim('x\ny'))).toBe(chalk.ansi256(208)(chalk.dim('x\ny')));
    }
  });
});
