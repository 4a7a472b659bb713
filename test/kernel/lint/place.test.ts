// lint/place.ts: the memory directory, its repository and the configuration as read, before the rules load.
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintPlace, ruleOnAsRead } from '../../../src/kernel/lint/place.js';
import { lintSetup } from '../../../src/kernel/lint/setup.js';
import { activeRules } from '../../../src/kernel/lint/runner.js';
import { tempDir } from '../../helpers/cli.js';

const env = { PATH: process.env.PATH };

function project(config?: unknown): { cwd: string; mem: string } {
  const cwd = realpathSync(tempDir('memctx-lint-place-'));
  const mem = join(cwd, '.memory');
  mkdirSync(mem);
  if (config !== undefined) writeFileSync(join(cwd, 'memctx.config.json'), JSON.stringify(config));
  return { cwd, mem };
}

describe('lintPlace', () => {
  it('reads what lintSetup reads: the folder, the repository and the configuration file', () => {
    const { cwd, mem } = project({ rules: { 'content/drifted': 'off' } });
    const place = lintPlace({ memoryDir: mem }, { cwd, env });
    expect([place.root, place.repo, place.loaded.path, place.loaded.data]).toEqual([mem, { root: cwd, git: false }, join(cwd, 'memctx.config.json'), { rules: { 'content/drifted': 'off' } }]);
    expect(lintSetup({ memoryDir: mem }, { cwd, env }, place)).toEqual(lintSetup({ memoryDir: mem }, { cwd, env }));
    const other = join(cwd, 'other.json');
    writeFileSync(other, '{}');
    expect(lintPlace({ memoryDir: mem, configFile: 'other.json' }, { cwd, env }).loaded).toEqual({ path: other, data: {}, warnings: [] });
  });

  it('ruleOnAsRead agrees with the checked configuration on a valid file: off only when set "off"', () => {
    for (const config of [undefined, {}, { rules: {} }, { rules: { 'content/drifted': 'off' } }, { rules: { 'content/drifted': 'warn' } }, { rules: { 'content/drifted': 'error' } }, { rules: { 'content/stale': 'off' } }]) {
      const { cwd, mem } = project(config);
      const place = lintPlace({ memoryDir: mem }, { cwd, env });
      const active = activeRules(lintSetup({ memoryDir: mem }, { cwd, env }, place).config).some(({ rule }) => rule.id === 'content/drifted');
      expect(ruleOnAsRead(place, 'content/drifted')).toBe(active);
    }
  });
});
