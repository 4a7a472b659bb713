import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { formatStylish } from '../../../../src/commands/lint/formatters/stylish.js';
import type { FormatOptions } from '../../../../src/commands/lint/formatters/types.js';
import type { Finding, LintResult } from '../../../../src/kernel/lint/types.js';

const options = (level: 0 | 1 = 0) => ({ displayPath: (file: string) => `.memory/${file}`, chalk: new Chalk({ level }) }) as unknown as FormatOptions;

function result(findings: Finding[], fixable = { error: 0, warning: 0 }): LintResult {
  return {
    findings,
    errorCount: findings.filter((f) => f.severity === 'error').length,
    warningCount: findings.filter((f) => f.severity === 'warning').length,
    fixableErrorCount: fixable.error,
    fixableWarningCount: fixable.warning,
    checked: [],
  };
}

const FINDINGS: Finding[] = [
  { file: 'a.md', line: 12, column: 3, message: 'name is missing', ruleId: 'frontmatter/required', severity: 'error' },
  { file: 'b.md', message: 'not listed in MEMORY.md', ruleId: 'index/missing-entry', severity: 'warning' },
  { file: 'a.md', line: 2, message: 'a\nlong one', ruleId: 'content/long', severity: 'warning' },
];

describe('formatStylish', () => {
  it('is empty when there is nothing to report', () => {
    expect(formatStylish(result([]), options())).toBe('');
  });

  it('groups findings under each file in aligned columns, then the totals and what --fix can fix', () => {
    expect(formatStylish(result(FINDINGS, { error: 1, warning: 0 }), options())).toBe(
      [
        '.memory/a.md',
        '  12:3  error    name is missing  frontmatter/required',
        '   2:1  warning  a\\nlong one      content/long',
        '',
        '.memory/b.md',
        '  -  warning  not listed in MEMORY.md  index/missing-entry',
        '',
        '✖ 3 problems (1 error, 2 warnings)',
        '  1 error and 0 warnings potentially fixable with `memctx lint --fix`.',
        '',
      ].join('\n'),
    );
  });

  it('colours errors red and warnings yellow, the summary after the worst', () => {
    const warning = FINDINGS[1];
    expect(formatStylish(result([warning]), options(1))).toBe(
      '\u001b[4m.memory/b.md\u001b[24m\n  \u001b[2m-\u001b[22m  \u001b[33mwarning\u001b[39m  not listed in MEMORY.md  \u001b[2mindex/missing-entry\u001b[22m\n\n\u001b[33m\u001b[1m✖ 1 problem (0 errors, 1 warning)\u001b[22m\u001b[39m\n',
    );
  });
});
