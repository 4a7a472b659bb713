// edit/cli.ts: edit checks against the project's configuration, and what it prints (edit.test.ts holds the edits).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
import { runCli } from '../../helpers/run.js';

function project(): string {
  const cwd = tempDir('memctx-edit-cli-');
  mkdirSync(join(cwd, '.memory'));
  writeFileSync(join(cwd, '.memory', 'a.md'), '---\nname: a\ndescription: d\ntype: project\nupdated: 2026-11-01\n---\n\nSteps.\n');
  return cwd;
}

describe('memctx edit: the configuration', () => {
  it('a type memctx.config.json adds is accepted; without it, refused', async () => {
    const cwd = project();
    const refused = await runCli(['edit', 'a.md', '--old', 'type: project', '--new', 'type: runbook'], { cwd });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('invalid type "runbook"');
    writeFileSync(join(cwd, 'memctx.config.json'), JSON.stringify({ types: ['project', 'runbook'], colour: true }));
    expect(await runCli(['edit', 'a.md', '--old', 'type: project', '--new', 'type: runbook'], { cwd })).toEqual({
      code: 0,
      stdout: 'edited a.md\n',
      stderr: `warning: ${join(cwd, 'memctx.config.json')}: unknown key "colour"; ignored (known: $schema, rules, thresholds, types, flush)\n`,
    });
    expect(readFileSync(join(cwd, '.memory', 'a.md'), 'utf8')).toContain('type: runbook\n');
  });

  it('--quiet prints nothing, warnings included', async () => {
    const cwd = project();
    writeFileSync(join(cwd, 'memctx.config.json'), JSON.stringify({ colour: true }));
    expect(await runCli(['--quiet', 'edit', 'a.md', '--old', 'Steps.', '--new', 'Stages.'], { cwd })).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(readFileSync(join(cwd, '.memory', 'a.md'), 'utf8')).toContain('Stages.');
  });
});
