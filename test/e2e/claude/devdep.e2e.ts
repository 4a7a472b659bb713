// memctx as a devDependency (the packed tarball installed with npm, nothing on PATH), `init --agent
// claude`, then the real Claude Code: `claude mcp list` shows the project server connected (init
// approved it), and a session gets the SessionStart bundle, the MCP memory tool and the SessionEnd
// flush, all through node_modules/.bin.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeCommand, claudeVersion, hasTmux, makeWorld, openTerminal, REPO, runClaude, toolResults, unavailable, type SessionResult, type World } from './harness.js';
import { stateOf } from '../../helpers/cli.js';

const npm = (args: string[], cwd: string) => spawnSync('npm', args, { cwd, encoding: 'utf8', timeout: 240_000, env: { ...process.env, npm_config_fund: 'false', npm_config_audit: 'false' } });

describe.skipIf(unavailable)(`memctx as a devDependency, wired by init, in Claude Code ${claudeVersion}`, () => {
  let world: World;
  let init: ReturnType<typeof spawnSync>;
  let list: { code: number; stdout: string; stderr: string };
  let session: SessionResult;

  beforeAll(async () => {
    world = makeWorld();
    // Nothing on PATH: only the project's install.
    rmSync(join(world.root, 'bin/memctx'));
    const packed = npm(['pack', '--ignore-scripts', '--json', '--pack-destination', world.root], REPO);
    const tarball = join(world.root, JSON.parse(packed.stdout)[0].filename);
    spawnSync('npm', ['init', '-y'], { cwd: world.project });
    const install = npm(['install', '-D', '--prefer-offline', tarball], world.project);
    if (install.status !== 0) throw new Error(`npm install -D failed: ${install.stderr}`);
    init = spawnSync(join(world.project, 'node_modules/.bin/memctx'), ['init', '--agent', 'claude'], { cwd: world.project, encoding: 'utf8', env: { PATH: '/usr/bin:/bin:' + join(process.execPath, '..'), NO_COLOR: '1' } });
    list = await claudeCommand(world, ['mcp', 'list']);
    session = await runClaude(world, {
      prompt: 'What does the memory say about deploys?',
      allowedTools: ['mcp__memctx__memory'],
      turns: [
        { content: [{ type: 'tool_use', id: 'toolu_create', name: 'mcp__memctx__memory', input: { command: 'create', path: '/memories/project_deploys.md', file_text: '---\nname: Deploys\ndescription: How deploys run\ntype: project\n---\n\nDeploys run from main at 10:00.\n' } }] },
        { content: [{ type: 'text', text: 'Saved.\nDECISION: deploy from main only, because release branches drifted.' }] },
      ],
    });
  }, 300_000);
  afterAll(() => world?.cleanup());

  it('init chose the project install and said so', () => {
    expect(init.status).toBe(0);
    expect(init.stdout).toContain("commands start the project's memctx (node_modules/.bin/memctx)");
    expect(init.stdout).toContain('approved the memctx MCP server for you in .claude/settings.local.json');
  });

  it('claude mcp list: the project server is connected, not pending approval', () => {
    expect(list.stdout).toMatch(/memctx: npx --no-install memctx mcp - ✔ Connected/);
    expect(list.stdout).not.toContain('Pending approval');
    // Claude Code fired SessionEnd for that empty session: a skip in the log, not an error.
    const log = readFileSync(join(stateOf(join(world.project, '.memory')), 'flush.log'), 'utf8').split('\n');
    expect(log[0]).toMatch(/SessionEnd\(other\) session=\S+ skipped: empty session, nothing to record \(no transcript was written\)$/);
    expect(log.join('\n')).not.toContain(' error: ');
  });

  it('the session used the MCP tool; SessionEnd wrote the session file through node_modules/.bin', () => {
    expect(session.code).toBe(0);
    expect(toolResults(session.requests).get('toolu_create')?.isError).toBe(false);
    expect(existsSync(join(world.project, '.memory/project_deploys.md'))).toBe(true);
    expect(JSON.stringify(session.transcript)).not.toContain('not found');
    const sessions = readdirSync(join(world.project, '.memory/sessions'));
    expect(sessions).toHaveLength(1);
    expect(readFileSync(join(world.project, '.memory/sessions', sessions[0]), 'utf8')).toContain('deploy from main only');
  });

  it.skipIf(!hasTmux())('the status line runs "$CLAUDE_PROJECT_DIR"/node_modules/.bin/memctx in an interactive session', async () => {
    const terminal = await openTerminal(world, { turns: [] });
    try {
      const [line] = await terminal.waitFor(/^ *○ ctx –.*$/m);
      expect(line.trim()).toMatch(/^○ ctx – · /);
    } finally {
      await terminal.close();
    }
  });
});
