/**
 * init --agent codex writes hook timeouts Codex accepts (issue 34, item 3): Codex cuts a SessionEnd
 * hook's timeout to 3 s and warns "clamping SessionEnd hook timeout to 3s" on every start.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../helpers/cli.js';
import { runMemctx } from '../../../helpers/run.js';

type Hooks = { hooks: Record<string, Array<{ matcher?: string; hooks: Array<{ type: string; command: string; timeout?: number }> }>> };
const readHooks = (dir: string) => JSON.parse(readFileSync(join(dir, '.codex/hooks.json'), 'utf8')) as Hooks;

describe('init --agent codex: hook timeouts', () => {
  it('SessionEnd asks for 3 s (Codex\'s limit); Stop and PreCompact keep theirs', async () => {
    const dir = tempDir();
    const out = await runMemctx(['init', '--agent', 'codex'], { cwd: dir, env: { PATH: '/usr/bin:/bin' } });
    expect(out.code).toBe(0);
    expect(readHooks(dir).hooks).toEqual({
      Stop: [{ hooks: [{ type: 'command', command: 'memctx checkpoint', timeout: 30 }] }],
      SessionEnd: [{ hooks: [{ type: 'command', command: 'memctx flush --hook', timeout: 3 }] }],
      PreCompact: [{ hooks: [{ type: 'command', command: 'memctx flush --hook', timeout: 10 }] }],
    });
  });

  it("keeps the user's own hooks (and their timeouts) and lowers the 10 s an earlier init wrote", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, '.codex'));
    const mine = { type: 'command', command: './scripts/notify.sh', timeout: 10 };
    writeFileSync(join(dir, '.codex/hooks.json'), JSON.stringify({ hooks: {
      SessionEnd: [{ hooks: [mine] }, { hooks: [{ type: 'command', command: 'memctx flush --hook', timeout: 10 }] }],
      PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo done' }] }],
    } }));
    const out = await runMemctx(['init', '--agent', 'codex'], { cwd: dir, env: { PATH: '/usr/bin:/bin' } });
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('updated .codex/hooks.json: hooks.Stop, hooks.SessionEnd, hooks.PreCompact');
    const hooks = readHooks(dir).hooks;
    expect(hooks.SessionEnd).toEqual([{ hooks: [mine] }, { hooks: [{ type: 'command', command: 'memctx flush --hook', timeout: 3 }] }]);
    expect(hooks.PostToolUse).toEqual([{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo done' }] }]);
    const again = await runMemctx(['init', '--agent', 'codex'], { cwd: dir, env: { PATH: '/usr/bin:/bin' } });
    expect(again.stdout).toContain('agent files already set up; nothing changed');
  });
});
