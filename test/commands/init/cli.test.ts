// init/cli.ts: init's flags checked together, and its report as text and as JSON.
import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
import { runCli } from '../../helpers/run.js';

describe('memctx init: flags', () => {
  it('--user-config is for --agent codex only; --summarize-with needs claude or codex; nothing is made', async () => {
    const cwd = tempDir();
    expect(await runCli(['init', '--user-config'], { cwd })).toEqual({ code: 2, stdout: '', stderr: 'memctx: error: --user-config is for --agent codex only\n  hint: add --agent codex, or leave --user-config out\n' });
    expect(await runCli(['init', '--agent', 'cursor', '--user-config'], { cwd })).toMatchObject({ code: 2, stdout: '' });
    expect(await runCli(['init', '--agent', 'cursor', '--summarize-with', 'claude'], { cwd })).toEqual({
      code: 2,
      stdout: '',
      stderr: 'memctx: error: --summarize-with needs --agent claude or --agent codex (their SessionEnd hook asks the agent)\n  hint: add --agent claude, or leave --summarize-with out\n',
    });
    expect(await runCli(['init', '--agent', 'emacs'], { cwd })).toMatchObject({ code: 2, stderr: 'memctx: error: --agent must be one of claude, codex, cursor, got "emacs"\n' });
    expect(existsSync(join(cwd, '.memory'))).toBe(false);
  });
});

describe('memctx init: the report', () => {
  it('--dry-run says what it would create, as text and as JSON, and creates nothing', async () => {
    const cwd = realpathSync(tempDir());
    expect(await runCli(['init', '--dry-run'], { cwd })).toEqual({ code: 0, stdout: 'would create .memory\n', stderr: '' });
    expect(JSON.parse((await runCli(['--json', 'init', '-n'], { cwd })).stdout)).toEqual({ dir: join(cwd, '.memory'), created: ['.'], dryRun: true });
    expect(existsSync(join(cwd, '.memory'))).toBe(false);
    expect((await runCli(['init'], { cwd })).code).toBe(0);
    expect(await runCli(['init', '--dry-run'], { cwd })).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('--json with --agent: the agent\'s changes without their old text', async () => {
    const cwd = realpathSync(tempDir());
    const report = JSON.parse((await runCli(['--json', 'init', '--agent', 'cursor', '--dry-run'], { cwd })).stdout);
    expect(Object.keys(report)).toEqual(['dir', 'created', 'dryRun', 'agent']);
    expect(report.agent.name).toBe('cursor');
    expect(report.agent.changes.map((c: { file: string; action: string }) => `${c.action} ${c.file}`)).toEqual(['create .cursor/rules/memctx.mdc', 'create .cursor/mcp.json']);
    expect(report.agent.changes.every((c: object) => !('before' in c) && 'after' in c)).toBe(true);
  });
});
