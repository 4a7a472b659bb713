import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, REPO, tempDir } from '../../../helpers/cli.js';
import { runMemctx } from '../../../helpers/run.js';
import { sarifLog } from '../../../../src/commands/lint/formatters/sarif.js';
import { defaultLintConfig } from '../../../../src/kernel/lint/config.js';
import { RULES } from '../../../../src/kernel/lint/rules/index.js';
import type { LintResult } from '../../../../src/kernel/lint/types.js';
import { Chalk } from 'chalk';

const finding = (file: string, message: string, ruleId = 'security/secret') => ({ file, message, ruleId, severity: 'error' as const, line: 3 });
const result: LintResult = {
  findings: [finding('a.md', 'ghp_**** (40 characters)'), finding('a.md', 'ghp_**** (40 characters)'), finding('b.md', 'ghp_**** (40 characters)')],
  errorCount: 3, warningCount: 0, fixableErrorCount: 0, fixableWarningCount: 0, checked: ['a.md', 'b.md'],
};
const options = {
  displayPath: (f: string) => f, absolutePath: (f: string) => `/repo/.memory/${f}`, repoPath: (f: string) => `.memory/${f}`, repoRoot: '/repo',
  chalk: new Chalk({ level: 0 }), rules: RULES, config: defaultLintConfig(RULES), version: '1.0.0',
};

describe('SARIF for GitHub code scanning', () => {
  it('gives every rule help text and markdown; links only to what package.json names (else none)', () => {
    const run = (sarifLog(result, options) as any).runs[0];
    expect(run.tool.driver.informationUri).toBeUndefined();
    for (const rule of run.tool.driver.rules) {
      expect(rule.help.text.startsWith(RULES.find((r) => r.id === rule.id)!.description)).toBe(true);
      expect(rule.help.markdown).toContain(`<!-- memctx-disable ${rule.id} -->`);
      expect(rule.help.markdown).toContain(`Documentation: \`docs/rules/${rule.id}.md\` in the memctx package.`);
      expect(rule).not.toHaveProperty('helpUri');
    }
    const linked = (sarifLog(result, { ...options, links: { home: 'https://memctx.dev', repository: 'https://github.com/o/memctx' } }) as any).runs[0].tool.driver;
    expect(linked.informationUri).toBe('https://memctx.dev');
    expect(linked.rules.find((r: { id: string }) => r.id === 'content/stale').helpUri).toBe('https://github.com/o/memctx/blob/HEAD/docs/rules/content/stale.md');
    const readme = readFileSync(join(REPO, 'docs/commands/lint.md'), 'utf8');
    for (const rule of RULES) expect(readme, rule.id).toMatch(new RegExp(`^\\| \`${rule.id}\` \\| \\w+ \\| \\w+ \\| <a id="rule-${rule.id.replace('/', '-')}"></a>`, 'm'));
    const secret = run.tool.driver.rules.find((r: { id: string }) => r.id === 'security/secret');
    expect(secret.properties).toMatchObject({ 'security-severity': '9.0', tags: ['memory-hygiene', 'security'] });
    expect(run.originalUriBaseIds).toEqual({ '%SRCROOT%': { uri: 'file:///repo/' } });
  });

  it('fingerprints results by rule, file and message; repeats are numbered', () => {
    const prints = (sarifLog(result, options) as any).runs[0].results.map((r: any) => r.partialFingerprints.primaryLocationLineHash as string);
    expect(prints[0].replace(/:1$/, '')).toBe(prints[1].replace(/:2$/, ''));
    expect(prints[1].endsWith(':2')).toBe(true);
    expect(prints[2]).not.toBe(prints[0]);
    expect(prints[2].endsWith(':1')).toBe(true);
    // The same findings on other lines keep their fingerprints.
    const moved = { ...result, findings: result.findings.map((f) => ({ ...f, line: 9 })) };
    expect((sarifLog(moved, options) as any).runs[0].results.map((r: any) => r.partialFingerprints.primaryLocationLineHash)).toEqual(prints);
  });
});

describe('SARIF from memctx lint, with the package.json memctx ships (issue 34, item 9)', () => {
  it('names the tool\'s home (informationUri) and each rule\'s documentation (helpUri); package.json has repository, homepage, bugs', async () => {
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
    expect(pkg.repository).toEqual({ type: 'git', url: 'git+https://github.com/memctx/memctx.git' });
    expect(pkg.homepage).toBe('https://github.com/memctx/memctx#readme');
    expect(pkg.bugs).toEqual({ url: 'https://github.com/memctx/memctx/issues' });
    const cwd = tempDir();
    cpSync(join(FIXTURES, 'seed-memory'), join(cwd, '.memory'), { recursive: true, filter: (s) => !s.endsWith('.memctx') });
    const out = await runMemctx(['lint', '--format', 'sarif'], { cwd });
    const driver = JSON.parse(out.stdout).runs[0].tool.driver;
    expect(driver.informationUri).toBe('https://github.com/memctx/memctx#readme');
    expect(driver.rules.length).toBe(RULES.length);
    for (const rule of driver.rules) expect(rule.helpUri).toBe(`https://github.com/memctx/memctx/blob/HEAD/docs/rules/${rule.id}.md`);
  });
});
