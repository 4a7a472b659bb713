// cli/lint-setup.ts: lint's setup for one invocation, its configuration warnings on stderr.
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintConfigOnce, loadLintSetup } from '../../../src/kernel/cli/lint-setup.js';
import { tempDir } from '../../helpers/cli.js';
import { runHandler } from '../../helpers/context.js';

describe('loadLintSetup', () => {
  it('finds the memory directory from the context, and prints each configuration warning on stderr', async () => {
    const cwd = realpathSync(tempDir('memctx-lint-setup-'));
    mkdirSync(join(cwd, '.memory'));
    writeFileSync(join(cwd, 'memctx.config.json'), JSON.stringify({ rules: { 'content/stail': 'off' }, colour: true }));
    let root = '';
    const result = await runHandler({ cwd }, async (ctx) => {
      root = loadLintSetup(ctx).root;
      return 0;
    });
    expect(root).toBe(join(cwd, '.memory'));
    expect(result).toEqual({
      code: 0,
      stdout: '',
      stderr: `warning: ${join(cwd, 'memctx.config.json')}: unknown key "colour"; ignored (known: $schema, rules, thresholds, types, flush)\nwarning: ${join(cwd, 'memctx.config.json')}: unknown rule "content/stail" in "rules"; ignored (did you mean "content/stale"?)\n`,
    });
  });

  it('takes --config, and --quiet silences the warnings', async () => {
    const cwd = realpathSync(tempDir('memctx-lint-setup-'));
    mkdirSync(join(cwd, '.memory'));
    writeFileSync(join(cwd, 'ci.json'), JSON.stringify({ rules: { nope: 'off' } }));
    let path: string | undefined;
    const result = await runHandler({ cwd, globals: { quiet: true } }, async (ctx) => {
      path = loadLintSetup(ctx, 'ci.json').configPath;
      return 0;
    });
    expect([path, result]).toEqual([join(cwd, 'ci.json'), { code: 0, stdout: '', stderr: '' }]);
  });
});

describe('lintConfigOnce', () => {
  it('loads the configuration on the first ask only: the same object each time, its warning printed once', async () => {
    const cwd = realpathSync(tempDir('memctx-lint-setup-'));
    mkdirSync(join(cwd, '.memory'));
    writeFileSync(join(cwd, 'memctx.config.json'), JSON.stringify({ colour: true }));
    const seen: unknown[] = [];
    const result = await runHandler({ cwd }, async (ctx) => {
      const config = lintConfigOnce(ctx);
      seen.push(config(), config(), config());
      return 0;
    });
    expect(seen[0]).toBe(seen[1]);
    expect(seen[1]).toBe(seen[2]);
    expect(result.stderr).toBe(`warning: ${join(cwd, 'memctx.config.json')}: unknown key "colour"; ignored (known: $schema, rules, thresholds, types, flush)\n`);
  });
});

