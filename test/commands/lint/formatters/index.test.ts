import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { defaultLintConfig } from '../../../../src/kernel/lint/config.js';
import { escapeData, escapeProperty, formatGithub } from '../../../../src/commands/lint/formatters/github.js';
import { FORMATTERS } from '../../../../src/commands/lint/formatters/index.js';
import { jsonPieces, jsonResults } from '../../../../src/commands/lint/formatters/json.js';
import { sarifLog } from '../../../../src/commands/lint/formatters/sarif.js';
import { formatStylish } from '../../../../src/commands/lint/formatters/stylish.js';
import type { FormatOptions } from '../../../../src/commands/lint/formatters/types.js';
import { RULES } from '../../../../src/kernel/lint/rules/index.js';
import type { LintResult } from '../../../../src/kernel/lint/types.js';

const plain = new Chalk({ level: 0 });
const options: FormatOptions = {
  displayPath: (f) => `.memory/${f}`,
  absolutePath: (f) => `/repo/.memory/${f}`,
  repoPath: (f) => `.memory/${f}`,
  chalk: plain,
  rules: RULES,
  config: defaultLintConfig(RULES),
  version: '9.9.9',
};

const result: LintResult = {
  findings: [
    { file: 'MEMORY.md', line: 3, column: 1, ruleId: 'index/stale', severity: 'error', message: 'MEMORY.md is out of date (1 line missing); run `memctx index`', fix: { type: 'rebuild-index' } },
    { file: 'a b.md', line: 12, column: 5, ruleId: 'content/ephemeral', severity: 'warning', message: 'commit hash 3f2a9c1…: 50%, a: b\nnext' },
    { file: 'a b.md', ruleId: 'frontmatter/parse-error', severity: 'error', message: 'alias bomb' },
  ],
  errorCount: 2,
  warningCount: 1,
  fixableErrorCount: 1,
  fixableWarningCount: 0,
  checked: ['MEMORY.md', 'a b.md', 'clean.md'],
};

describe('stylish', () => {
  it('groups by file, aligns columns and sums up', () => {
    expect(formatStylish(result, options)).toBe(
      [
        '.memory/MEMORY.md',
        '  3:1  error  MEMORY.md is out of date (1 line missing); run `memctx index`  index/stale',
        '',
        '.memory/a b.md',
        '  12:5  warning  commit hash 3f2a9c1…: 50%, a: b\\nnext  content/ephemeral',
        '     -  error    alias bomb                             frontmatter/parse-error',
        '',
        '✖ 3 problems (2 errors, 1 warning)',
        '  1 error and 0 warnings potentially fixable with `memctx lint --fix`.',
        '',
      ].join('\n'),
    );
  });

  it('prints nothing when clean, and colours when asked', () => {
    expect(formatStylish({ ...result, findings: [], errorCount: 0, warningCount: 0, fixableErrorCount: 0 }, options)).toBe('');
    const coloured = formatStylish(result, { ...options, chalk: new Chalk({ level: 1 }) });
    expect(coloured).toContain('\u001b[31merror\u001b[39m');
    expect(coloured).toContain('\u001b[4m.memory/MEMORY.md\u001b[24m');
  });
});

describe('json', () => {
  it('has ESLint\'s shape: one entry per checked file, severity 2/1, counts', () => {
    const json = jsonResults(result, options);
    expect(json.map((r) => r.filePath)).toEqual(['/repo/.memory/MEMORY.md', '/repo/.memory/a b.md', '/repo/.memory/clean.md']);
    expect(json[1]).toEqual({
      filePath: '/repo/.memory/a b.md',
      messages: [
        { ruleId: 'content/ephemeral', severity: 1, message: 'commit hash 3f2a9c1…: 50%, a: b\nnext', line: 12, column: 5 },
        { ruleId: 'frontmatter/parse-error', severity: 2, message: 'alias bomb' },
      ],
      suppressedMessages: [],
      errorCount: 1,
      fatalErrorCount: 0,
      warningCount: 1,
      fixableErrorCount: 0,
      fixableWarningCount: 0,
      usedDeprecatedRules: [],
    });
    expect(json[0].fixableErrorCount).toBe(1);
    expect(json[2].messages).toEqual([]);
    expect([...jsonPieces(result, options)].join('')).toBe(`${JSON.stringify(json, null, 2)}\n`);
  });

  it('writes the same bytes as JSON.stringify in pieces of any size, and [] when nothing was checked', () => {
    const whole = `${JSON.stringify(jsonResults(result, options), null, 2)}\n`;
    for (const size of [1, 2, 1000]) {
      const pieces = [...jsonPieces(result, options, size)];
      expect(pieces.join('')).toBe(whole);
      expect(pieces.length).toBe(size === 1 ? 4 : size === 2 ? 3 : 2);
    }
    const none = { ...result, findings: [], checked: [], errorCount: 0, warningCount: 0, fixableErrorCount: 0, fixableWarningCount: 0 };
    expect([...jsonPieces(none, options)]).toEqual(['[]\n']);
    const piecesOf = FORMATTERS.json(result, options);
    expect(typeof piecesOf === 'string' ? piecesOf : [...piecesOf].join('')).toBe(whole);
  });
});

describe('github', () => {
  it('escapes data and properties as the workflow-command spec requires', () => {
    expect(escapeData('50% done\r\nnext: a,b')).toBe('50%25 done%0D%0Anext: a,b');
    expect(escapeProperty('C:\\dir,x%\n')).toBe('C%3A\\dir%2Cx%25%0A');
  });

  it('one annotation per finding, then the full report', () => {
    const text = formatGithub({ ...result, findings: result.findings.map((f) => (f.file === 'a b.md' ? { ...f, file: 'dir,x:y.md' } : f)) }, options);
    const [first, second, third, ...rest] = text.split('\n');
    expect(first).toBe('::error file=.memory/MEMORY.md,line=3,col=1,title=memctx index/stale::MEMORY.md is out of date (1 line missing); run `memctx index`');
    expect(second).toBe('::warning file=.memory/dir%2Cx%3Ay.md,line=12,col=5,title=memctx content/ephemeral::commit hash 3f2a9c1…: 50%25, a: b%0Anext');
    expect(third).toBe('::error file=.memory/dir%2Cx%3Ay.md,title=memctx frontmatter/parse-error::alias bomb');
    expect(rest.join('\n')).toContain('✖ 3 problems (2 errors, 1 warning)');
    expect(rest[0]).toMatch(/^::stop-commands::memctx-[0-9a-f]{32}$/);
    expect(rest[1]).toBe('.memory/MEMORY.md');
  });
});

describe('sarif', () => {
  it('is SARIF 2.1.0 with every rule in a stable order and paths relative to the repository', () => {
    const log = sarifLog(result, options) as any;
    expect(log.version).toBe('2.1.0');
    expect(log.$schema).toBe('https://json.schemastore.org/sarif-2.1.0.json');
    const run = log.runs[0];
    expect(run.tool.driver.name).toBe('memctx');
    expect(run.tool.driver.version).toBe('9.9.9');
    expect(run.tool.driver.rules.map((r: { id: string }) => r.id)).toEqual(RULES.map((r) => r.id));
    expect(run.tool.driver.rules[0]).toMatchObject({ id: 'frontmatter/parse-error', name: 'FrontmatterParseError', defaultConfiguration: { level: 'error' } });
    expect(run.results[1]).toEqual({
      ruleId: 'content/ephemeral',
      ruleIndex: RULES.findIndex((r) => r.id === 'content/ephemeral'),
      level: 'warning',
      message: { text: 'commit hash 3f2a9c1…: 50%, a: b\nnext' },
      partialFingerprints: { primaryLocationLineHash: expect.stringMatching(/^[0-9a-f]{32}:1$/) },
      locations: [{ physicalLocation: { artifactLocation: { uri: '.memory/a%20b.md', uriBaseId: '%SRCROOT%' }, region: { startLine: 12, startColumn: 5 } } }],
    });
    expect(run.results[2].locations[0].physicalLocation.region).toEqual({ startLine: 1, startColumn: 1 });
  });

  it('uses file URIs for a memory directory outside the repository, and "none" for rules turned off', () => {
    const config = defaultLintConfig(RULES);
    config.rules['content/ephemeral'] = 'off';
    const log = sarifLog(result, { ...options, config, repoPath: () => undefined }) as any;
    expect(log.runs[0].results[0].locations[0].physicalLocation.artifactLocation).toEqual({ uri: 'file:///repo/.memory/MEMORY.md' });
    expect(log.runs[0].tool.driver.rules.find((r: { id: string }) => r.id === 'content/ephemeral').defaultConfiguration.level).toBe('none');
  });
});
