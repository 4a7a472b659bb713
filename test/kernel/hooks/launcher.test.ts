import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, REPO, tempDir } from '../../helpers/cli.js';
import { runMemctx } from '../../helpers/run.js';

const json = (dir: string, file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8'));

/** A `memctx` shim that starts the built bin, as npm links a devDependency or a global install. */
function shim(dir: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'memctx'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`, { mode: 0o755 });
  return dir;
}

const LOCAL = '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/memctx';

describe('init --agent claude: the commands start memctx as this project has it installed', () => {
  it('a devDependency: hooks and status line start node_modules/.bin/memctx, the MCP server npx --no-install; approved in settings.local.json', async () => {
    const dir = tempDir();
    shim(join(dir, 'node_modules/.bin'));
    const out = await runMemctx(['init', '--agent', 'claude'], { cwd: dir, env: { PATH: '/usr/bin:/bin' } });
    expect(out.code).toBe(0);
    expect(out.stdout).toContain("commands start the project's memctx (node_modules/.bin/memctx)\n");
    expect(out.stdout).toContain('created .claude/settings.local.json: enabledMcpjsonServers');
    expect(out.stdout).toContain('approved the memctx MCP server for you in .claude/settings.local.json');
    const settings = json(dir, '.claude/settings.json');
    expect(settings.statusLine.command).toBe(`${LOCAL} status --statusline`);
    expect(settings.hooks.SessionStart[0].hooks[0].command).toBe(`${LOCAL} pack --profile rehydrate --budget 2000 --quiet`);
    expect(settings.hooks.SessionEnd[0].hooks[0].command).toBe(`${LOCAL} flush --hook`);
    expect(settings.hooks.PreCompact[0].hooks[0].command).toBe(`${LOCAL} flush --hook`);
    expect(json(dir, '.mcp.json').mcpServers.memctx).toEqual({ type: 'stdio', command: 'npx', args: ['--no-install', 'memctx', 'mcp'] });
    expect(json(dir, '.claude/settings.local.json')).toEqual({ enabledMcpjsonServers: ['memctx'] });
    const again = await runMemctx(['init', '--agent', 'claude'], { cwd: dir, env: { PATH: '/usr/bin:/bin' } });
    expect(again.stdout).toContain('agent files already set up; nothing changed');
    // docs/agents.md shows exactly what init writes for a devDependency.
    const readme = readFileSync(join(REPO, 'docs/agents.md'), 'utf8');
    const block = /`\.claude\/settings\.json` ends up as:\n\n```json\n([\s\S]*?)\n```/.exec(readme);
    expect(JSON.parse(block![1])).toEqual(settings);
  });

  it('both global and local: the local one, saying so', async () => {
    const dir = tempDir();
    shim(join(dir, 'node_modules/.bin'));
    const global = shim(join(tempDir(), 'bin'));
    const out = await runMemctx(['init', '--agent', 'claude'], { cwd: dir, env: { PATH: `${global}:/usr/bin` } });
    expect(out.stdout).toContain(`commands start the project's memctx (node_modules/.bin/memctx); the global ${join(global, 'memctx')} is also installed, the project's own is preferred\n`);
    expect(json(dir, '.claude/settings.json').hooks.SessionEnd[0].hooks[0].command).toBe(`${LOCAL} flush --hook`);
  });

  it('global only: bare memctx, naming the one on PATH; neither: bare memctx with a warning', async () => {
    const dir = tempDir();
    const global = shim(join(tempDir(), 'bin'));
    const out = await runMemctx(['init', '--agent', 'claude'], { cwd: dir, env: { PATH: `/usr/bin:${global}` } });
    expect(out.stdout).toContain(`commands start the global memctx on PATH (${join(global, 'memctx')})\n`);
    expect(json(dir, '.claude/settings.json').hooks.SessionEnd[0].hooks[0].command).toBe('memctx flush --hook');
    expect(json(dir, '.mcp.json').mcpServers.memctx).toEqual({ type: 'stdio', command: 'memctx', args: ['mcp'] });

    const bare = tempDir();
    const none = await runMemctx(['init', '--agent', 'claude'], { cwd: bare, env: { PATH: '/usr/bin:/bin' } });
    expect(none.code).toBe(0);
    expect(none.stderr).toContain('warning: memctx was found neither in node_modules/.bin nor on PATH');
  });

  it('a second run after installing locally rewrites the commands init wrote, and leaves the user\'s own alone', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude/settings.json'), JSON.stringify({ hooks: { SessionEnd: [{ hooks: [{ type: 'command', command: 'echo bye' }] }] } }));
    await runMemctx(['init', '--agent', 'claude'], { cwd: dir, env: { PATH: '/usr/bin:/bin' } });
    expect(json(dir, '.claude/settings.json').hooks.SessionEnd[1].hooks[0].command).toBe('memctx flush --hook');
    shim(join(dir, 'node_modules/.bin'));
    const out = await runMemctx(['init', '--agent', 'claude'], { cwd: dir, env: { PATH: '/usr/bin:/bin' } });
    expect(out.stdout).toContain('updated .claude/settings.json: statusLine, hooks.SessionStart, hooks.SessionEnd, hooks.PreCompact');
    expect(out.stdout).toContain('updated .mcp.json: mcpServers.memctx');
    const settings = json(dir, '.claude/settings.json');
    expect(settings.hooks.SessionEnd.map((g: { hooks: Array<{ command: string }> }) => g.hooks[0].command)).toEqual(['echo bye', `${LOCAL} flush --hook`]);
    expect(settings.statusLine.command).toBe(`${LOCAL} status --statusline`);
  });

  it('a monorepo with .memory/ below the git top level, and a Windows-style CLAUDE_PROJECT_DIR with spaces: the hook runs', async () => {
    const top = join(tempDir(), 'C:\\Users\\Jane Doe\\repo');
    const app = join(top, 'packages/app');
    mkdirSync(app, { recursive: true });
    spawnSync('git', ['init', '-q', top]);
    shim(join(app, 'node_modules/.bin'));
    const out = await runMemctx(['init', '--agent', 'claude'], { cwd: app, env: { PATH: '/usr/bin:/bin' } });
    expect(out.code).toBe(0);
    const settings = json(top, '.claude/settings.json');
    const start = '"$CLAUDE_PROJECT_DIR"/packages/app/node_modules/.bin/memctx --dir "$CLAUDE_PROJECT_DIR"/packages/app/.memory';
    expect(settings.hooks.SessionStart[0].hooks[0].command).toBe(`${start} pack --profile rehydrate --budget 2000 --quiet`);
    expect(json(top, '.mcp.json').mcpServers.memctx.args).toEqual(['--no-install', '--prefix', 'packages/app', 'memctx', '--dir', 'packages/app/.memory', 'mcp']);
    writeFileSync(join(app, '.memory/project_a.md'), '---\nname: A\ndescription: The first fact\ntype: project\n---\n\nBody.\n');
    // Claude Code runs hooks with /bin/sh in the project, CLAUDE_PROJECT_DIR set to it.
    const hook = spawnSync('/bin/sh', ['-c', settings.hooks.SessionStart[0].hooks[0].command], { cwd: top, encoding: 'utf8', env: { PATH: '/usr/bin:/bin', CLAUDE_PROJECT_DIR: top, NO_COLOR: '1' } });
    expect(hook.stderr).toBe('');
    expect(hook.status).toBe(0);
    expect(hook.stdout).toContain('project_a.md');
  });
});
