// sessions/cli.ts: the table `memctx sessions` prints, --limit as a flag, and nothing for no sessions
// (sessions.test.ts holds the listing, --field and --since).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
import { runCli } from '../../helpers/run.js';

const session = (goal: string, fm: string) => `---\nname: s\ndescription: d\ntype: project\nkind: session\n${fm}---\n\n## Goal\n\n${goal}\n\n## Progress\n\nnone recorded\n`;

describe('memctx sessions: the table', () => {
  it('one row per session, newest first: path, time, agent, model, goal; --limit keeps the newest', async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, '.memory', 'sessions'), { recursive: true });
    writeFileSync(join(cwd, '.memory', 'sessions', 'old.md'), session('Fix login', 'updated: 2026-11-01T09:00:00Z\nagent: codex\nmodel: gpt-5.5\n'));
    writeFileSync(join(cwd, '.memory', 'sessions', 'new.md'), session('Add rate limits', 'updated: 2026-11-20T09:00:00Z\n'));
    expect(await runCli(['sessions'], { cwd })).toEqual({
      code: 0,
      stdout: 'sessions/new.md  2026-11-20T09:00:00Z  -      -        Add rate limits\nsessions/old.md  2026-11-01T09:00:00Z  codex  gpt-5.5  Fix login\n',
      stderr: '',
    });
    expect((await runCli(['sessions', '--limit', '1'], { cwd })).stdout).toBe('sessions/new.md  2026-11-20T09:00:00Z  -  -  Add rate limits\n');
    expect(await runCli(['sessions', '--limit', 'two'], { cwd })).toMatchObject({ code: 2, stdout: '' });
  });

  it('prints nothing when there is no session, and [] with --json', async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, '.memory'));
    expect(await runCli(['sessions'], { cwd })).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await runCli(['--json', 'sessions', '--field', 'goal'], { cwd })).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
  });
});
