// The terminal report of status --startup.
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { renderStartup } from '../../../src/commands/status/startup-report.js';
import type { StartupReport } from '../../../src/commands/status/startup.js';

const report: StartupReport = {
  command: 'memctx pack --profile rehydrate --budget 25000',
  profile: 'rehydrate',
  budget: 25_000,
  tokens: 12_345,
  bySource: { index: 345, pinned: 10_000, sessions: 1000, drifted: 0, others: 1000 },
  chars: 49_000,
  hookOutputLimitChars: 10_000,
  overHookLimit: true,
  pinnedLeftOut: [],
  advice: 'Over the limit: lower it.',
  warnings: [],
};

describe('renderStartup', () => {
  it('a row per source with its share, the total, the characters against the limit, the advice', () => {
    expect(renderStartup(report, new Chalk({ level: 0 }))).toBe(
      [
        'SessionStart bundle  12,345 / 25,000 tokens (49% of the budget)  memctx pack --profile rehydrate --budget 25000',
        'source    tokens  share',
        'index        345    3%   the bundle header and the index of every memory',
        'pinned    10,000   81%   the files the profile loads first (latest state, open next steps, decisions, issues)',
        'sessions   1,000    8%   other sessions',
        'drifted        0    0%   the Drifted memories block',
        'others     1,000    8%   other memories',
        'total     12,345  100%',
        "characters: 49,000 / 10,000 (Claude Code's hook-output limit)  OVER",
        'Over the limit: lower it.',
        '',
      ].join('\n'),
    );
  });

  it('colours the verdict: red when over, green when it fits', () => {
    const chalk = new Chalk({ level: 1 });
    expect(renderStartup(report, chalk)).toContain(chalk.red('Over the limit: lower it.'));
    expect(renderStartup({ ...report, overHookLimit: false, chars: 900, advice: 'fine' }, chalk)).toContain(`${chalk.green('fits')}\n${chalk.green('fine')}\n`);
  });
});
