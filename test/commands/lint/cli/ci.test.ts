import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_THRESHOLDS } from '../../../../src/kernel/lint/config.js';
import { RULES } from '../../../../src/kernel/lint/rules/index.js';
import { runMemctx } from '../../../helpers/run.js';
import { LINT_NOW as NOW, lintProject } from '../../../helpers/lint-project.js';

describe('lint for CI and editors', () => {
  let cwd: string;
  let memory: string;
  const lint = (args: string[]) => runMemctx(['lint', ...args], { cwd, now: NOW });
  beforeEach(async () => {
    ({ cwd, memory } = await lintProject());
  });
  afterEach(() => rmSync(cwd, { recursive: true, force: true }));

  it('lint FILES reports only those files; files outside the memory directory are ignored', async () => {
    const all = JSON.parse((await lint(['--format', 'json'])).stdout) as Array<{ filePath: string; messages: unknown[] }>;
    expect(all.filter((f) => f.messages.length).map((f) => f.filePath)).toEqual([join(memory, 'a.md'), join(memory, 'b.md')]);
    const one = await lint(['--format', 'json', '.memory/b.md', 'README.md']);
    expect(one.code).toBe(1);
    expect((JSON.parse(one.stdout) as Array<{ filePath: string }>).map((f) => f.filePath)).toEqual([join(memory, 'b.md')]);
    const clean = await lint(['.memory/c.md']);
    expect(clean.code).toBe(0);
    const none = await lint(['README.md']);
    expect(none).toMatchObject({ code: 0, stderr: 'memctx lint: none of the 1 given file is in the memory directory; nothing to check\n' });
  });

  it('--output-file writes the report; --config picks the file; unknown keys warn; --print-config shows what is in effect', async () => {
    const written = await lint(['--format', 'sarif', '--output-file', 'out/report.sarif']);
    expect(written.code).toBe(1);
    expect(written.stdout).toBe('');
    expect(JSON.parse(readFileSync(join(cwd, 'out/report.sarif'), 'utf8')).version).toBe('2.1.0');
    writeFileSync(join(cwd, 'strict.json'), JSON.stringify({ $schema: './node_modules/memctx/schema/memctx.config.schema.json', rules: { 'frontmatter/required': 'off' }, thershold: {} }));
    const configured = await lint(['--config', 'strict.json']);
    expect(configured.code).toBe(0);
    expect(configured.stderr).toContain(`${join(cwd, 'strict.json')}: unknown key "thershold"; ignored (did you mean "thresholds"?)`);
    const printed = await runMemctx(['lint', '--print-config', '--config', 'strict.json'], { cwd });
    const config = JSON.parse(printed.stdout);
    expect(config).toMatchObject({ $schema: './node_modules/memctx/schema/memctx.config.schema.json', file: join(cwd, 'strict.json'), thresholds: DEFAULT_THRESHOLDS, types: ['user', 'feedback', 'project', 'reference'] });
    expect(config.rules['frontmatter/required']).toBe('off');
    expect(Object.keys(config.rules)).toEqual(RULES.map((r) => r.id));
  });
});
