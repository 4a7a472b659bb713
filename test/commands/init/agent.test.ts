import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runMemctx } from '../../helpers/run.js';
import { tempDir } from '../../helpers/cli.js';

const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');

describe('memctx init --agent', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('memctx-init-agent-');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('claude: writes the section, settings and .mcp.json; a second run changes nothing', async () => {
    const first = await runMemctx(['init', '--agent', 'claude'], { cwd: dir });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('created CLAUDE.md: memory section');
    expect(first.stdout).toContain('created .claude/settings.json: statusLine, hooks.SessionStart, hooks.SessionEnd, hooks.PreCompact');
    expect(first.stdout).toContain('created .mcp.json: mcpServers.memctx');
    const claude = read(dir, 'CLAUDE.md');
    expect(claude).toMatch(/^<!-- memctx:begin -->\n## Project memory \(memctx\)\n\nThis project keeps long-lived memory in `\.memory\/`/);
    expect(claude).toContain('Never save secrets');
    // A drifted memory is checked against the code before it is acted on (issue 35).
    expect(claude).toContain('check it against the code before acting on it, then record the check with `memctx verify PATH`');
    const settings = JSON.parse(read(dir, '.claude/settings.json'));
    expect(settings.statusLine).toEqual({ type: 'command', command: 'memctx status --statusline', padding: 0 });
    expect(settings.hooks.PreCompact).toEqual([{ matcher: 'auto|manual', hooks: [{ type: 'command', command: 'memctx flush --hook', timeout: 10 }] }]);
    expect(JSON.parse(read(dir, '.mcp.json'))).toEqual({ mcpServers: { memctx: { type: 'stdio', command: 'memctx', args: ['mcp'] } } });
    const snapshot = ['CLAUDE.md', '.claude/settings.json', '.mcp.json', '.memory/MEMORY.md'].map((f) => read(dir, f));
    const second = await runMemctx(['init', '--agent', 'claude'], { cwd: dir });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('agent files already set up; nothing changed');
    expect(['CLAUDE.md', '.claude/settings.json', '.mcp.json', '.memory/MEMORY.md'].map((f) => read(dir, f))).toEqual(snapshot);
  });

  it('merges into existing settings and instructions without clobbering them', async () => {
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, 'CLAUDE.md'), '# My project\n\nUse pnpm.\n');
    writeFileSync(join(dir, '.claude/settings.json'), JSON.stringify({ model: 'opus', statusLine: { type: 'command', command: 'my-line' }, hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'echo hi' }] }] } }));
    writeFileSync(join(dir, '.mcp.json'), JSON.stringify({ mcpServers: { other: { command: 'x' } } }));
    const out = await runMemctx(['init', '--agent', 'claude'], { cwd: dir });
    expect(out.code).toBe(0);
    expect(out.stderr).toContain('already has a statusLine; left as it is');
    const settings = JSON.parse(read(dir, '.claude/settings.json'));
    expect(settings.model).toBe('opus');
    expect(settings.statusLine).toEqual({ type: 'command', command: 'my-line' });
    expect(settings.hooks.SessionStart.map((g: { hooks: Array<{ command: string }> }) => g.hooks[0].command)).toEqual(['echo hi', 'memctx pack --profile rehydrate --budget 2000 --quiet']);
    expect(Object.keys(JSON.parse(read(dir, '.mcp.json')).mcpServers)).toEqual(['other', 'memctx']);
    expect(read(dir, 'CLAUDE.md')).toMatch(/^# My project\n\nUse pnpm\.\n\n<!-- memctx:begin -->\n/);
    // The section is replaced in place; text around it survives.
    writeFileSync(join(dir, 'CLAUDE.md'), read(dir, 'CLAUDE.md').replace('## Project memory (memctx)', '## old heading') + '\nMore notes.\n');
    await runMemctx(['init', '--agent', 'claude'], { cwd: dir });
    const claude = read(dir, 'CLAUDE.md');
    expect(claude).toContain('## Project memory (memctx)');
    expect(claude).not.toContain('old heading');
    expect(claude).toMatch(/<!-- memctx:end -->\n\nMore notes\.\n$/);
  });

  it('--dry-run shows the changes and writes nothing; --json prints one document', async () => {
    const out = await runMemctx(['init', '--agent', 'codex', '--dry-run'], { cwd: dir });
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('would create .memory');
    expect(out.stdout).toContain('would create AGENTS.md: memory section');
    expect(out.stdout).toContain('+ ## Project memory (memctx)');
    expect(existsSync(join(dir, 'AGENTS.md'))).toBe(false);
    expect(existsSync(join(dir, '.memory'))).toBe(false);
    const json = await runMemctx(['--json', 'init', '--agent', 'cursor', '-n'], { cwd: dir });
    const doc = JSON.parse(json.stdout);
    expect(doc).toMatchObject({ dryRun: true, created: ['.'], agent: { name: 'cursor', changes: [{ file: '.cursor/rules/memctx.mdc', action: 'create' }, { file: '.cursor/mcp.json', action: 'create' }] } });
    expect(doc.agent.changes[0].after).toMatch(/^---\ndescription: How this project's memory works \(memctx\)\nalwaysApply: true\n---\n\n<!-- memctx:begin -->/);
    expect(existsSync(join(dir, '.cursor'))).toBe(false);
  });

  it('refuses a malformed settings.json, naming it, and changes nothing', async () => {
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude/settings.json'), '{ "hooks": [1, }');
    const out = await runMemctx(['init', '--agent', 'claude'], { cwd: dir });
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(join(dir, '.claude/settings.json'));
    expect(out.stderr).toContain('is not valid JSON');
    expect(existsSync(join(dir, 'CLAUDE.md'))).toBe(false);
    expect(existsSync(join(dir, '.memory'))).toBe(false);
    writeFileSync(join(dir, '.claude/settings.json'), '{"hooks": {"SessionEnd": "memctx"}}');
    expect((await runMemctx(['init', '--agent', 'claude'], { cwd: dir })).stderr).toContain('"hooks.SessionEnd" is not a list');
  });

  it('refuses duplicated markers, a symlinked CLAUDE.md and a read-only AGENTS.md', async () => {
    writeFileSync(join(dir, 'CLAUDE.md'), '<!-- memctx:begin -->\nx\n<!-- memctx:begin -->\n<!-- memctx:end -->\n');
    const markers = await runMemctx(['init', '--agent', 'claude'], { cwd: dir });
    expect(markers.code).toBe(2);
    expect(markers.stderr).toContain('CLAUDE.md: has 2 "<!-- memctx:begin -->"');
    rmSync(join(dir, 'CLAUDE.md'));
    writeFileSync(join(dir, 'real.md'), 'mine\n');
    symlinkSync(join(dir, 'real.md'), join(dir, 'CLAUDE.md'));
    const link = await runMemctx(['init', '--agent', 'claude'], { cwd: dir });
    expect(link.code).toBe(2);
    expect(link.stderr).toContain(`${join(dir, 'CLAUDE.md')}: is a symbolic link`);
    expect(read(dir, 'real.md')).toBe('mine\n');
    expect(existsSync(join(dir, '.mcp.json'))).toBe(false);
    writeFileSync(join(dir, 'AGENTS.md'), 'rules\n');
    chmodSync(join(dir, 'AGENTS.md'), 0o444);
    const readOnly = await runMemctx(['init', '--agent', 'codex'], { cwd: dir });
    expect(readOnly.code).toBe(2);
    expect(readOnly.stderr).toContain(`${join(dir, 'AGENTS.md')}: is read-only`);
    expect(read(dir, 'AGENTS.md')).toBe('rules\n');
  });

  it('refuses a symlinked .claude/ or .cursor/ folder whose real path leaves the repository; nothing is written', async () => {
    const outside = tempDir('memctx-init-outside-');
    try {
      symlinkSync(outside, join(dir, '.claude'));
      const claude = await runMemctx(['init', '--agent', 'claude'], { cwd: dir });
      expect(claude.code).toBe(2);
      expect(claude.stderr).toContain(`${join(dir, '.claude/settings.json')}: leads outside the repository (its real path is ${join(outside, 'settings.json')}, through a symbolic link); nothing was changed`);
      mkdirSync(join(dir, 'real-cursor'));
      symlinkSync(outside, join(dir, '.cursor'));
      const cursor = await runMemctx(['init', '--agent', 'cursor'], { cwd: dir });
      expect(cursor.code).toBe(2);
      expect(cursor.stderr).toContain('leads outside the repository');
      expect(readdirSync(outside)).toEqual([]);
      expect(existsSync(join(dir, 'CLAUDE.md'))).toBe(false);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('refuses a settings.json holding a key twice, naming the key; nothing is written', async () => {
    mkdirSync(join(dir, '.claude'));
    const text = '{\n  "hooks": { "Stop": [] },\n  "model": "opus",\n  "hooks": { "SessionStart": [] }\n}\n';
    writeFileSync(join(dir, '.claude/settings.json'), text);
    const out = await runMemctx(['init', '--agent', 'claude'], { cwd: dir });
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(`${join(dir, '.claude/settings.json')}:4: holds the key "hooks" twice in one object`);
    expect(read(dir, '.claude/settings.json')).toBe(text);
    expect(existsSync(join(dir, 'CLAUDE.md'))).toBe(false);
  });
});
