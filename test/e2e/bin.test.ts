import { existsSync, readdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, FIXTURES, memctx, tempDir, type CliResult } from '../helpers/cli.js';
import { runCli } from '../helpers/run.js';

/**
 * The few true end-to-end tests: the built bin, started as a user starts it, gives exactly what
 * the in-process harness gives (every other command test runs in-process). The hook, concurrency
 * and tokenizer-loading tests that also run the bin live beside their command's tests.
 */
function workspace(): string {
  const cwd = tempDir();
  copyFixture('seed-memory', cwd);
  renameSync(join(cwd, 'seed-memory'), join(cwd, '.memory'));
  return cwd;
}

async function same(args: string[], cwd: string, input?: string): Promise<CliResult> {
  const bin = memctx(args, { cwd, input });
  expect(bin).toEqual(await runCli(args, { cwd, input }));
  return bin;
}

describe('the built bin reads: --version, ls, show, index --check, search, pack, lint, gc give what main() gives', () => {
  // One workspace for these reads (none of them writes), one test per command: no test near its timeout on a loaded machine.
  let cwd = '';
  beforeAll(() => {
    cwd = workspace();
  });
  it.each<[string[], (bin: CliResult) => void]>([
    [['--version'], (bin) => expect(bin.stdout).toMatch(/^\d+\.\d+\.\d+\n$/)],
    [['ls', '--json'], (bin) => expect(bin.code).toBe(0)],
    [['show', 'project_auth.md'], (bin) => expect(bin.stdout).toContain('name: Auth Refactor')],
    [['index', '--check'], (bin) => expect(bin.code).toBe(0)],
    [['search', 'auth'], (bin) => expect(bin.stdout).toContain('project_auth.md')],
    [['pack', '--budget', '2000'], (bin) => expect(bin.stdout).toContain('project_auth.md')],
    [['lint', '--format', 'json'], (bin) => expect(bin.stdout).toMatch(/^\[/)],
    [['gc'], (bin) => expect(bin.code).toBe(0)],
    [['nonsense'], (bin) => expect(bin.code).toBe(2)],
  ])('%j', async (args, check) => {
    check(await same(args, cwd));
  });
});

describe('the built bin', () => {
  it('status, the status line and compact read transcripts as main() does', async () => {
    const cwd = workspace();
    const transcript = join(FIXTURES, 'transcripts', 'claude-session.jsonl');
    expect((await same(['status', transcript], cwd)).stdout).toContain('%');
    const input = JSON.stringify({ model: { id: 'claude-opus-4-1', display_name: 'Opus' }, context_window: { context_window_size: 200000, used_percentage: 42 } });
    expect(await same(['status', '--statusline'], cwd, input)).toEqual({ code: 0, stdout: '● 42% 84k/200k · Opus\n', stderr: '' });
    expect((await same(['status', '--statusline'], cwd, 'not json')).code).toBe(0);
    expect((await same(['compact', transcript], cwd)).code).toBe(0);
  });

  it('runs the same where Node cannot require an ES module (Node 20.17, 22.9): the launcher imports main() instead', async () => {
    const cwd = workspace();
    const input = JSON.stringify({ model: { id: 'claude-opus-4-1', display_name: 'Opus' }, context_window: { context_window_size: 200000, used_percentage: 42 } });
    const env = { NODE_OPTIONS: '--no-experimental-require-module' };
    expect(memctx(['status', '--statusline'], { cwd, input, env })).toEqual({ code: 0, stdout: '● 42% 84k/200k · Opus\n', stderr: '' });
    expect(memctx(['--version'], { cwd, env })).toEqual(await runCli(['--version'], { cwd }));
    expect(memctx(['index', '--check'], { cwd, env })).toEqual(await runCli(['index', '--check'], { cwd }));
  });

  it('writes: init, add, edit, mv, rm and flush change the files on disk', () => {
    const cwd = tempDir();
    expect(memctx(['init'], { cwd }).code).toBe(0);
    expect(memctx(['add', 'notes.md', '--name', 'Notes', '--description', 'Scratch', '--type', 'project', '--body', 'hello'], { cwd }).code).toBe(0);
    expect(memctx(['edit', 'notes.md', '--old', 'hello', '--new', 'goodbye'], { cwd }).code).toBe(0);
    expect(memctx(['mv', 'notes.md', 'later.md'], { cwd }).code).toBe(0);
    const show = memctx(['show', 'later.md'], { cwd });
    expect(show.code).toBe(0);
    expect(show.stdout).toContain('goodbye');
    expect(memctx(['rm', 'later.md'], { cwd }).code).toBe(0);
    expect(existsSync(join(cwd, '.memory', 'later.md'))).toBe(false);
    expect(memctx(['flush', '--goal', 'Try the bin'], { cwd }).code).toBe(0);
    expect(readdirSync(join(cwd, '.memory', 'sessions'))).toHaveLength(1);
  });
});
