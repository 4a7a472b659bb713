// init --summarize-with (issue 32): the SessionEnd flush asks the agent's headless mode in the background.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runMemctx } from '../../../helpers/run.js';
import { tempDir } from '../../../helpers/cli.js';

const json = (dir: string, file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8'));
const sessionEnd = (dir: string, file: string) => json(dir, file).hooks.SessionEnd;

describe('memctx init --agent … --summarize-with', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('memctx-init-summarize-');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('claude: one SessionEnd hook, `flush --hook --summarize-with claude`; PreCompact unchanged; a second run changes nothing', async () => {
    expect((await runMemctx(['init', '--agent', 'claude', '--summarize-with', 'claude'], { cwd: dir })).code).toBe(0);
    expect(sessionEnd(dir, '.claude/settings.json')).toEqual([{ hooks: [{ type: 'command', command: 'memctx flush --hook --summarize-with claude', timeout: 10 }] }]);
    expect(json(dir, '.claude/settings.json').hooks.PreCompact[0].hooks[0].command).toBe('memctx flush --hook');
    const second = await runMemctx(['init', '--agent', 'claude', '--summarize-with', 'claude'], { cwd: dir });
    expect(second.stdout).toContain('agent files already set up; nothing changed');
  });

  it('opting in later turns the plain flush into the asking one (never a second hook); a run without the flag keeps it', async () => {
    expect((await runMemctx(['init', '--agent', 'claude'], { cwd: dir })).code).toBe(0);
    expect(sessionEnd(dir, '.claude/settings.json')[0].hooks[0].command).toBe('memctx flush --hook');
    const opt = await runMemctx(['init', '--agent', 'claude', '--summarize-with', 'claude'], { cwd: dir });
    expect(opt.stdout).toContain('updated .claude/settings.json: hooks.SessionEnd');
    expect(sessionEnd(dir, '.claude/settings.json')).toEqual([{ hooks: [{ type: 'command', command: 'memctx flush --hook --summarize-with claude', timeout: 10 }] }]);
    const before = readFileSync(join(dir, '.claude/settings.json'), 'utf8');
    const again = await runMemctx(['init', '--agent', 'claude'], { cwd: dir });
    expect(again.stdout).toContain('agent files already set up; nothing changed');
    expect(readFileSync(join(dir, '.claude/settings.json'), 'utf8')).toBe(before);
    await runMemctx(['init', '--agent', 'claude', '--summarize-with', 'codex'], { cwd: dir });
    expect(sessionEnd(dir, '.claude/settings.json')).toEqual([{ hooks: [{ type: 'command', command: 'memctx flush --hook --summarize-with codex', timeout: 10 }] }]);
  });

  it('codex: the SessionEnd hook in .codex/hooks.json, within Codex\'s 3 s cap', async () => {
    expect((await runMemctx(['init', '--agent', 'codex', '--summarize-with', 'codex'], { cwd: dir })).code).toBe(0);
    expect(sessionEnd(dir, '.codex/hooks.json')).toEqual([{ hooks: [{ type: 'command', command: 'memctx flush --hook --summarize-with codex', timeout: 3 }] }]);
  });

  it('--dry-run shows the hook it would write, and writes nothing', async () => {
    const r = await runMemctx(['init', '--agent', 'claude', '--summarize-with', 'claude', '--dry-run'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('"command": "memctx flush --hook --summarize-with claude"');
    expect(() => readFileSync(join(dir, '.claude/settings.json'))).toThrow();
  });

  it('refuses a value other than claude or codex, and the option without --agent claude|codex: exit 2, nothing written', async () => {
    const bad = await runMemctx(['init', '--agent', 'claude', '--summarize-with', 'claude -p --dangerously-skip-permissions'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('memctx: error: --summarize-with must be one of claude, codex, got "claude -p --dangerously-skip-permissions"');
    const alone = await runMemctx(['init', '--summarize-with', 'claude'], { cwd: dir });
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('memctx: error: --summarize-with needs --agent claude or --agent codex (their SessionEnd hook asks the agent)');
    const cursor = await runMemctx(['init', '--agent', 'cursor', '--summarize-with', 'claude'], { cwd: dir });
    expect(cursor.code).toBe(2);
    expect(() => readFileSync(join(dir, '.memory/MEMORY.md'))).toThrow();
  });
});
