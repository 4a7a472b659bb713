// `memctx init --agent claude` in a fresh repository, then a real session that uses everything it wired:
// the MCP memory and search tools (from .mcp.json), the SessionStart pack, the SessionEnd flush. The
// commands it writes call `memctx` on PATH, which the harness points at the built bin.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeVersion, makeWorld, memctx, runClaude, section, toolResults, unavailable, type SessionResult, type World } from './harness.js';
import { requestText } from './stand-in.js';

const hasInitAgent = /--agent/.test(memctx(['init', '--help'], { cwd: process.cwd() }).stdout);
const skip = unavailable ?? (hasInitAgent ? undefined : 'memctx init has no --agent option yet (issue 13)');
if (skip) console.log(`skipped: ${skip}`);

const PROMPT = 'Add rate limiting to the login endpoint and remember the limits';
const MEMORY = ['---', 'name: Login rate limit', 'description: Limits on the login endpoint', 'type: project', '---', '', 'Five attempts per minute per IP.', ''].join('\n');
const FINAL = [
  'Rate limiting is in place.',
  'DECISION: limit by IP and by account, because attackers rotate addresses.',
  'TODO: expose the limits in the admin settings.',
].join('\n');

describe.skipIf(skip)(`memctx init --agent claude, then a session in Claude Code ${claudeVersion}`, () => {
  let world: World;
  let session: SessionResult;
  let init: { code: number; stdout: string; stderr: string };

  beforeAll(async () => {
    world = makeWorld();
    init = memctx(['init', '--agent', 'claude'], { cwd: world.project, env: { HOME: world.home } });
    session = await runClaude(world, {
      prompt: PROMPT,
      allowedTools: ['Write', 'mcp__memctx__memory', 'mcp__memctx__search'],
      turns: [
        { content: [{ type: 'tool_use', id: 'toolu_create', name: 'mcp__memctx__memory', input: { command: 'create', path: '/memories/project_login_limits.md', file_text: MEMORY } }] },
        { content: [{ type: 'tool_use', id: 'toolu_edit', name: 'mcp__memctx__memory', input: { command: 'str_replace', path: '/memories/project_login_limits.md', old_str: 'Five attempts', new_str: 'Ten attempts' } }] },
        { content: [{ type: 'tool_use', id: 'toolu_search', name: 'mcp__memctx__search', input: { query: 'login rate limit' } }] },
        { content: [{ type: 'tool_use', id: 'toolu_write', name: 'Write', input: { file_path: join(world.project, 'src/auth/rate-limit.js'), content: 'export const LOGIN_LIMIT = 10;\n' } }] },
        { content: [{ type: 'text', text: FINAL }] },
      ],
    });
  });
  afterAll(() => world?.cleanup());

  it('init wires Claude Code: instructions, hooks, status line, MCP server', () => {
    expect(init.code).toBe(0);
    expect(existsSync(join(world.project, '.memory/MEMORY.md'))).toBe(true);
    const settings = JSON.parse(readFileSync(join(world.project, '.claude/settings.json'), 'utf8'));
    expect(settings.statusLine).toEqual({ type: 'command', command: 'memctx status --statusline', padding: 0 });
    expect(settings.hooks.SessionStart[0].hooks[0].command).toBe('memctx pack --profile rehydrate --budget 2000 --quiet');
    expect(settings.hooks.SessionEnd[0].hooks[0]).toEqual({ type: 'command', command: 'memctx flush --hook', timeout: 10 });
    expect(settings.hooks.PreCompact[0]).toEqual({ matcher: 'auto|manual', hooks: [{ type: 'command', command: 'memctx flush --hook', timeout: 10 }] });
    expect(JSON.parse(readFileSync(join(world.project, '.mcp.json'), 'utf8'))).toEqual({ mcpServers: { memctx: { type: 'stdio', command: 'memctx', args: ['mcp'] } } });
    // Running it again changes nothing.
    const before = readFileSync(join(world.project, '.claude/settings.json'), 'utf8');
    expect(memctx(['init', '--agent', 'claude'], { cwd: world.project, env: { HOME: world.home } }).code).toBe(0);
    expect(readFileSync(join(world.project, '.claude/settings.json'), 'utf8')).toBe(before);
  });

  it('the session runs every turn with the MCP tools, and the model saw the memory instructions', () => {
    expect(session.code).toBe(0);
    expect(session.stdout.trim()).toBe(FINAL);
    expect(session.agentRequests.map((r) => r.turn)).toEqual([0, 1, 2, 3, 4]);
    const results = toolResults(session.requests);
    for (const id of ['toolu_create', 'toolu_edit', 'toolu_search', 'toolu_write']) expect(results.get(id)?.isError, id).toBe(false);
    expect(JSON.parse(results.get('toolu_search')!.text).hits[0].path).toBe('project_login_limits.md');
    // Claude Code hands the model CLAUDE.md without its HTML comments (the section's markers).
    const claudeMd = readFileSync(join(world.project, 'CLAUDE.md'), 'utf8').split('\n').filter((line) => line.trim() && !line.startsWith('<!--'));
    expect(claudeMd[0]).toBe('## Project memory (memctx)');
    const shown = requestText(session.agentRequests[0].body);
    for (const line of claudeMd) expect(shown).toContain(line);
  });

  it('the memory is on disk in the store format and listed in MEMORY.md', () => {
    const text = readFileSync(join(world.project, '.memory/project_login_limits.md'), 'utf8');
    expect(text.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/g, 'STAMP')).toBe(MEMORY.replace('type: project\n', 'type: project\nupdated: STAMP\ncreated: STAMP\n').replace('Five', 'Ten'));
    expect(readFileSync(join(world.project, '.memory/MEMORY.md'), 'utf8')).toContain('- [Login rate limit](project_login_limits.md) — Limits on the login endpoint\n');
  });

  it('the SessionEnd hook wrote the session file: goal, decision, changed files, next step; lint is clean', () => {
    const sessions = readdirSync(join(world.project, '.memory/sessions'));
    expect(sessions).toHaveLength(1);
    const text = readFileSync(join(world.project, '.memory/sessions', sessions[0]), 'utf8');
    expect(section(text, 'Goal')).toBe(PROMPT);
    expect(section(text, 'Decisions')).toBe('- limit by IP and by account, because attackers rotate addresses.');
    // A file the scripted model wrote within the session's first second may miss git's (new) mark: the list is what counts.
    expect(section(text, 'Changed Files').replaceAll(' (new)', '')).toBe('- src/auth/rate-limit.js');
    expect(section(text, 'Next Steps')).toBe('- expose the limits in the admin settings.');
    const lint = memctx(['lint'], { cwd: world.project });
    expect({ code: lint.code, stderr: lint.stderr }).toEqual({ code: 0, stderr: '' });
    expect(lint.stdout).toMatch(/^✔ no problems in \d+ memory files\n$/);
  });
});
