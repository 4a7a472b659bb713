import { describe, expect, it } from 'vitest';
import { jsonPieces, jsonResults } from '../../../../src/commands/lint/formatters/json.js';
import type { FormatOptions } from '../../../../src/commands/lint/formatters/types.js';
import type { LintResult } from '../../../../src/kernel/lint/types.js';

const options = { absolutePath: (file: string) => `/repo/.memory/${file}` } as unknown as FormatOptions;

const RESULT: LintResult = {
  findings: [
    { file: 'b.md', line: 4, message: 'bad date', ruleId: 'frontmatter/invalid-date', severity: 'error', fix: { range: [0, 1], text: '' } },
    { file: 'b.md', message: 'not listed', ruleId: 'index/missing-entry', severity: 'warning' },
    { file: 'gone.md', line: 1, column: 5, message: 'unreadable', ruleId: 'file/unreadable', severity: 'error' },
  ],
  errorCount: 2,
  warningCount: 1,
  fixableErrorCount: 1,
  fixableWarningCount: 0,
  checked: ['c.md', 'b.md'],
} as unknown as LintResult;

const entry = (filePath: string, messages: unknown[], counts: { errorCount: number; warningCount: number; fixableErrorCount: number }) => ({
  filePath,
  messages,
  suppressedMessages: [],
  errorCount: counts.errorCount,
  fatalErrorCount: 0,
  warningCount: counts.warningCount,
  fixableErrorCount: counts.fixableErrorCount,
  fixableWarningCount: 0,
  usedDeprecatedRules: [],
});

describe('jsonResults', () => {
  it("gives ESLint's shape: every checked file and every file with a finding, sorted, severity 2 or 1", () => {
    expect(jsonResults(RESULT, options)).toEqual([
      entry(
        '/repo/.memory/b.md',
        [
          { ruleId: 'frontmatter/invalid-date', severity: 2, message: 'bad date', line: 4, column: 1 },
          { ruleId: 'index/missing-entry', severity: 1, message: 'not listed' },
        ],
        { errorCount: 1, warningCount: 1, fixableErrorCount: 1 },
      ),
      entry('/repo/.memory/c.md', [], { errorCount: 0, warningCount: 0, fixableErrorCount: 0 }),
      entry('/repo/.memory/gone.md', [{ ruleId: 'file/unreadable', severity: 2, message: 'unreadable', line: 1, column: 5 }], { errorCount: 1, warningCount: 0, fixableErrorCount: 0 }),
    ]);
  });
});

describe('jsonPieces', () => {
  it('joins to exactly what JSON.stringify writes, in any batch size', () => {
    const whole = `${JSON.stringify(jsonResults(RESULT, options), null, 2)}\n`;
    for (const batch of [1, 2, 3, 1000]) expect([...jsonPieces(RESULT, options, batch)].join('')).toBe(whole);
    expect([...jsonPieces(RESULT, options, 2)]).toHaveLength(3);
  });

  it('writes an empty list for no files', () => {
    expect([...jsonPieces({ ...RESULT, findings: [], checked: [] }, options)].join('')).toBe('[]\n');
  });
});
