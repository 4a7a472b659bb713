// lint/setup.ts: where lint finds its repository and configuration (test/commands/lint/cli.test.ts runs
// the same files through `memctx lint`).
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintSetup } from '../../../src/kernel/lint/setup.js';
import { MemctxError } from '../../../src/kernel/errors.js';
import { tempDir } from '../../helpers/cli.js';

const env = { PATH: process.env.PATH };

/** A project folder (no git) holding .memory/. */
function project(): { cwd: string; mem: string } {
  const cwd = realpathSync(tempDir('memctx-lint-setup-'));
  const mem = join(cwd, '.memory');
  mkdirSync(mem);
  return { cwd, mem };
}

describe('lintSetup', () => {
  it('without git: the repository is the memory directory\'s parent, the defaults apply', () => {
    const { cwd, mem } = project();
    const setup = lintSetup({ memoryDir: mem }, { cwd, env });
    expect([setup.root, setup.repo, setup.memoryPrefix, setup.configPath, setup.warnings]).toEqual([mem, { root: cwd, git: false }, '.memory', undefined, []]);
    expect(setup.config.thresholds.maxTokens).toBe(2000);
  });

  it('resolves a memory directory reached through a link', () => {
    const { cwd, mem } = project();
    symlinkSync(mem, join(cwd, 'notes'));
    expect(lintSetup({ memoryDir: join(cwd, 'notes') }, { cwd, env }).root).toBe(mem);
  });

  it('memctx.config.json at the root wins over .memory/config.json, with a warning naming both', () => {
    const { cwd, mem } = project();
    writeFileSync(join(mem, 'config.json'), JSON.stringify({ thresholds: { maxTokens: 300 } }));
    expect(lintSetup({ memoryDir: mem }, { cwd, env })).toMatchObject({ configPath: join(mem, 'config.json'), config: { thresholds: { maxTokens: 300 } }, warnings: [] });
    writeFileSync(join(cwd, 'memctx.config.json'), JSON.stringify({ thresholds: { maxTokens: 400 }, rules: { 'content/duplicates': 'off' } }));
    const setup = lintSetup({ memoryDir: mem }, { cwd, env });
    expect(setup.configPath).toBe(join(cwd, 'memctx.config.json'));
    expect(setup.config.thresholds.maxTokens).toBe(400);
    expect(setup.warnings).toEqual([
      `both ${join(cwd, 'memctx.config.json')} and ${join(mem, 'config.json')} exist; using ${join(cwd, 'memctx.config.json')} and ignoring the other`,
      `${join(cwd, 'memctx.config.json')}: unknown rule "content/duplicates" in "rules"; ignored (did you mean "content/duplicate"?)`,
    ]);
  });

  it('--config names a file relative to the working directory, and only that file is read', () => {
    const { cwd, mem } = project();
    writeFileSync(join(cwd, 'memctx.config.json'), JSON.stringify({ thresholds: { maxTokens: 400 } }));
    mkdirSync(join(cwd, 'ci'));
    writeFileSync(join(cwd, 'ci/strict.json'), JSON.stringify({ rules: { 'frontmatter/required': 'off' } }));
    const setup = lintSetup({ memoryDir: mem, configFile: 'strict.json' }, { cwd: join(cwd, 'ci'), env });
    expect(setup.configPath).toBe(join(cwd, 'ci/strict.json'));
    expect([setup.config.thresholds.maxTokens, setup.config.rules['frontmatter/required'], setup.warnings]).toEqual([2000, 'off', []]);
  });

  it('a value of the wrong type is a usage error naming the file, the line of the key and how to fix it', () => {
    const { cwd, mem } = project();
    writeFileSync(join(cwd, 'memctx.config.json'), '{\n  "thresholds": {\n    "maxTokens": "lots"\n  }\n}\n');
    let error: unknown;
    try {
      lintSetup({ memoryDir: mem }, { cwd, env });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(MemctxError);
    expect(error).toMatchObject({ message: 'invalid configuration: "thresholds.maxTokens" must be a positive whole number (got string "lots")', file: join(cwd, 'memctx.config.json'), line: 3, exitCode: 2 });
    expect((error as MemctxError).hint).toContain('fix "thresholds.maxTokens"');
  });

  it('--claude: the repository is the working directory\'s, and the memory directory outside it has no prefix', () => {
    const { cwd } = project();
    const elsewhere = realpathSync(tempDir('memctx-lint-setup-home-'));
    const setup = lintSetup({ memoryDir: elsewhere, claude: true }, { cwd, env });
    expect([setup.repo.root, setup.memoryPrefix]).toEqual([cwd, undefined]);
  });
});
