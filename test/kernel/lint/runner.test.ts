import { describe, expect, it } from 'vitest';
import { renderIndexFile } from '../../../src/kernel/memindex/merge.js';
import { RULES } from '../../../src/kernel/lint/rules/index.js';
import { VALID, doc, lint, lines, mem, NOW } from '../../helpers/lint.js';
import type { LintRule } from '../../../src/kernel/lint/types.js';

describe('runner', () => {
  it('sorts findings by file, line and column, and applies severities from the config', async () => {
    const { only } = await import('../../helpers/lint.js');
    const config = only('frontmatter/required', 'frontmatter/invalid-type');
    config.rules['frontmatter/invalid-type'] = 'warn';
    const files = [mem('b.md', doc({ name: 'x', description: 'y', type: 'nope' })), mem('a.md', doc({ name: 'x' }))];
    const result = await lint(config, { files });
    expect(result.findings.map((f) => `${f.file}:${f.line} ${f.severity} ${f.ruleId}`)).toEqual([
      'a.md:1 error frontmatter/required',
      'a.md:1 error frontmatter/required',
      'b.md:4 warning frontmatter/invalid-type',
    ]);
    expect([result.errorCount, result.warningCount]).toEqual([2, 1]);
    expect(result.checked).toEqual(['a.md', 'b.md']);
  });

  it('the default config runs every rule and is clean on a tidy memory directory', async () => {
    const { defaultLintConfig } = await import('../../../src/kernel/lint/config.js');
    const files = [mem('project_auth.md', doc(VALID, 'Sessions moved to JWT in src/auth/session.ts.\n'))];
    const result = await lint(defaultLintConfig(RULES), {
      files,
      indexText: renderIndexFile(undefined, files),
      repoFiles: ['src/auth/session.ts'],
      memoryPrefix: '.memory',
      tokens: { encoding: 'o200k_base', count: () => 1 },
    });
    expect(lines(result)).toEqual([]);
    expect(NOW.toISOString()).toBe('2026-11-21T12:00:00.000Z');
  });
});

describe('rules waiting on git', () => {
  it('a rule awaiting what a later rule gives lets it run; findings stay in rule order; a failing rule still fails the run', async () => {
    const { runLint } = await import('../../../src/kernel/lint/runner.js');
    const { defaultLintConfig } = await import('../../../src/kernel/lint/config.js');
    let give: (v: string) => void = () => undefined;
    const given = new Promise<string>((resolve) => (give = resolve));
    const rule = (id: string, check: LintRule['check']): LintRule => ({ id, description: id, defaultSeverity: 'warning', fixable: false, check });
    const rules = [
      rule('a/waits', async () => [{ file: 'x.md', line: 1, column: 1, message: await given }]),
      rule('b/gives', () => (give('given by b'), [{ file: 'x.md', line: 1, column: 1, message: 'b' }])),
    ];
    const input = { files: [], problems: [], config: defaultLintConfig(rules), now: NOW };
    // Run in turn (the old runner), a/waits would wait for b forever: this test would time out.
    const result = await runLint(input, rules);
    expect(result.findings.map((f) => `${f.ruleId} ${f.message}`)).toEqual(['a/waits given by b', 'b/gives b']);
    const failing = [rule('c/fails', () => Promise.reject(new Error('c failed'))), rule('d/throws', () => { throw new Error('d failed'); })];
    await expect(runLint({ ...input, config: defaultLintConfig(failing) }, failing)).rejects.toThrow('c failed');
  }, 5_000);
});

describe('progress', () => {
  it('reports each enabled rule before it runs', async () => {
    const seen: string[] = [];
    await lint(['frontmatter/required', 'content/stale'], { onProgress: (id, done, total) => seen.push(`${done}/${total} ${id}`) });
    expect(seen).toEqual(['0/2 frontmatter/required', '1/2 content/stale']);
  });
});
