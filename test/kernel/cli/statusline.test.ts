import { describe, expect, it } from 'vitest';
import { Chalk } from 'chalk';
import { neutralStatusline, renderStatusline, shortTokens } from '../../../src/kernel/cli/statusline.js';

describe('renderStatusline', () => {
  const figure = (level: 'green' | 'yellow' | 'orange' | 'red', percent: number) => ({ level, percent, used: Math.round(percent * 2000), window: 200_000, model: 'Sonnet' });

  it("writes chalk's bytes at every colour level", () => {
    for (const colors of [0, 1, 2, 3] as const) {
      const chalk = new Chalk({ level: colors });
      const paint = { green: chalk.green, yellow: chalk.yellow, orange: colors >= 2 ? chalk.ansi256(208) : chalk.yellowBright, red: chalk.red };
      for (const [level, percent] of [['green', 42.9], ['yellow', 83], ['orange', 91.5], ['red', 97]] as const) {
        const c = paint[level];
        const tag = level === 'green' ? '' : ` ${level}`;
        const next = level === 'orange' || level === 'red' ? ` · ${c('/compact now')}` : '';
        const expected = `${c(`● ${Math.floor(percent)}%`)} ${shortTokens(Math.round(percent * 2000))}/200k · Sonnet${c(tag)}${next}`;
        expect(renderStatusline(figure(level, percent), colors)).toBe(expected);
      }
    }
  });

  it('the exact line at orange with 256 colours, and without colour', () => {
    expect(renderStatusline(figure('orange', 91), 2)).toBe('\x1b[38;5;208m● 91%\x1b[39m 182k/200k · Sonnet\x1b[38;5;208m orange\x1b[39m · \x1b[38;5;208m/compact now\x1b[39m');
    expect(renderStatusline({ level: 'green', percent: 5, used: 950, window: 1_000_000 }, 0)).toBe('● 5% 950/1M');
  });

  it('the neutral line, with and without a model', () => {
    expect(neutralStatusline()).toBe('○ ctx –');
    expect(neutralStatusline('Opus')).toBe('○ ctx – · Opus');
  });

  it('short token counts', () => {
    expect([950, 1000, 84_200, 1_000_000, 1_250_000].map(shortTokens)).toEqual(['950', '1k', '84k', '1M', '1.3M']);
  });
});
