// flush/hook.ts: the request of the hooks' command lines, and what the hook prints (cli.test.ts and flush.test.ts hold the rest).
import { describe, expect, it } from 'vitest';
import { hookRequest } from '../../../src/commands/flush/hook.js';
import { tempDir } from '../../helpers/cli.js';
import { runCli } from '../../helpers/run.js';

describe('flush --hook', () => {
  it('takes the defaults, with the agent to ask in the background when one is named', () => {
    expect(hookRequest()).toMatchObject({ hook: true, template: 'session', target: 500, max: 650, encoding: 'o200k_base', summarizeTimeout: 60, summarizeWith: undefined });
    expect(hookRequest('codex').summarizeWith).toBe('codex');
  });

  it('never fails: without a memory directory it says so on stderr and exits 0', async () => {
    const cwd = tempDir();
    const r = await runCli(['flush', '--hook'], { cwd, input: JSON.stringify({ session_id: 's', cwd, hook_event_name: 'SessionEnd' }) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^memctx flush --hook: .*\(not logged: no memory directory found\)\n$/);
  });
});
