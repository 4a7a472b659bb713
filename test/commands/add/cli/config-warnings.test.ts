// add/cli.ts reads the project's configuration once: its warnings are printed once (they were printed once per check).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../helpers/cli.js';
import { runCli } from '../../../helpers/run.js';

describe('memctx add: configuration warnings', () => {
  it('an unknown key in memctx.config.json is warned about once', async () => {
    const cwd = tempDir('memctx-add-config-');
    mkdirSync(join(cwd, '.memory'));
    writeFileSync(join(cwd, 'memctx.config.json'), JSON.stringify({ colour: true }));
    expect(await runCli(['add', 'x', '--name', 'X', '--description', 'd', '--type', 'user', '--body', 'hi'], { cwd })).toEqual({
      code: 0,
      stdout: 'created x.md\n',
      stderr: `warning: ${join(cwd, 'memctx.config.json')}: unknown key "colour"; ignored (known: $schema, rules, thresholds, types, flush)\n`,
    });
  });
});
