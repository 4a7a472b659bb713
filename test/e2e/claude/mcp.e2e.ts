// memctx's MCP server inside the real Claude Code: the memory and search tools, bad inputs, and the
// SessionEnd flush of the same session.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  claudeCommand,
  claudeVersion,
  hookCommand,
  hookRuns,
  makeWorld,
  memctx,
  MEMCTX_BIN,
  runClaude,
  section,
  toolResults,
  unavailable,
  writeSettings,
  type SessionResult,
  type World,
} from './harness.js';
import { requestText } from './stand-in.js';

const PROMPT = 'Make payment calls retry safely and remember how';
const MEMORY = [
  '---',
  'name: Payment retries',
  'description: How payment calls are retried',
  'type: project',
  'kind: decision',
  '---',
  '',
  'Retry idempotent payment calls 3 times.',
  '',
].join('\n');
const FINAL = [
  'Retries are in place and recorded in memory.',
  'DECISION: only idempotent payment calls are retried, because a retried charge could bill twice.',
  'TODO: add an idempotency key to refunds.',
].join('\n');
const TOOLS = ['Write', 'mcp__memctx__memory', 'mcp__memctx__search'];

describe.skipIf(unavailable)(`memctx mcp in Claude Code ${claudeVersion}`, () => {
  let world: World;
  let session: SessionResult;
  let results: ReturnType<typeof toolResults>;
  let list: { code: number; stdout: string };

  beforeAll(async () => {
    world = makeWorld();
    expect(memctx(['init'], { cwd: world.project }).code).toBe(0);
    const add = await claudeCommand(world, ['mcp', 'add', 'memctx', '--', process.execPath, MEMCTX_BIN, 'mcp']);
    expect(add.code).toBe(0);
    list = await claudeCommand(world, ['mcp', 'list']);
    writeSettings(world, { hooks: { SessionEnd: [{ hooks: [{ type: 'command', command: hookCommand(world, 'session-end', 'flush --hook'), timeout: 10 }] }] } });
    session = await runClaude(world, {
      prompt: PROMPT,
      allowedTools: TOOLS,
      turns: [
        { content: [{ type: 'tool_use', id: 'toolu_create', name: 'mcp__memctx__memory', input: { command: 'create', path: '/memories/project_payments.md', file_text: MEMORY } }] },
        { content: [{ type: 'tool_use', id: 'toolu_edit', name: 'mcp__memctx__memory', input: { command: 'str_replace', path: '/memories/project_payments.md', old_str: '3 times.', new_str: '3 times with exponential backoff.' } }] },
        // Bad input: a create without its path and text (the server answers a tool error).
        { content: [{ type: 'tool_use', id: 'toolu_bad', name: 'mcp__memctx__memory', input: { command: 'create' } }] },
        // Bad input: a command the tool does not have (rejected against the tool's schema).
        { content: [{ type: 'tool_use', id: 'toolu_unknown', name: 'mcp__memctx__memory', input: { command: 'fly', path: '/memories/x.md' } }] },
        { content: [{ type: 'tool_use', id: 'toolu_search', name: 'mcp__memctx__search', input: { query: 'payment retries backoff' } }] },
        { content: [{ type: 'tool_use', id: 'toolu_write', name: 'Write', input: { file_path: join(world.project, 'src/payments/retry.js'), content: 'export const RETRIES = 3;\n' } }] },
        { content: [{ type: 'text', text: FINAL }] },
      ],
    });
    results = toolResults(session.requests);
  });
  afterAll(() => world?.cleanup());

  it('claude mcp list health-checks the server', () => {
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^memctx: .*memctx\.js mcp - ✔ Connected$/m);
  });

  it('the session runs every scripted turn, past the bad inputs', () => {
    expect(session.code).toBe(0);
    expect(session.stdout.trim()).toBe(FINAL);
    expect(session.agentRequests.map((r) => r.turn)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    // This version defers MCP tools (listed by name, loaded through ToolSearch), so the model sees their names.
    const shown = requestText(session.agentRequests[0].body);
    for (const name of ['mcp__memctx__memory', 'mcp__memctx__search', 'mcp__memctx__pack', 'mcp__memctx__lint']) expect(shown).toContain(name);
  });

  it('creates and edits the memory through mcp__memctx__memory, in the store format and indexed', () => {
    expect(results.get('toolu_create')?.isError).toBe(false);
    expect(results.get('toolu_edit')?.isError).toBe(false);
    const text = readFileSync(join(world.project, '.memory/project_payments.md'), 'utf8');
    const shape = text.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/g, 'STAMP');
    expect(shape).toBe(MEMORY.replace('kind: decision\n', 'kind: decision\nupdated: STAMP\ncreated: STAMP\n').replace('3 times.', '3 times with exponential backoff.'));
    const index = readFileSync(join(world.project, '.memory/MEMORY.md'), 'utf8');
    expect(index).toContain('- [Payment retries](project_payments.md) — How payment calls are retried\n');
  });

  it('a malformed memory command is a tool error and Claude Code goes on', () => {
    // Claude Code appends the tool's schema to an MCP tool error.
    expect(results.get('toolu_bad')?.isError).toBe(true);
    expect(results.get('toolu_bad')?.text.split('\n')[0]).toBe('create needs path, file_text; it takes path, file_text');
    expect(results.get('toolu_unknown')).toEqual({
      isError: true,
      text: 'command must be one of view, create, str_replace, insert, delete, rename, got "fly"',
    });
  });

  it('finds the memory through mcp__memctx__search', () => {
    const search = results.get('toolu_search');
    expect(search?.isError).toBe(false);
    // This version hands the model the tool's structured content (JSON), not its text lines.
    const hits = JSON.parse(search!.text).hits;
    expect(hits.map((hit: any) => [hit.path, hit.name, hit.description])).toEqual([['project_payments.md', 'Payment retries', 'How payment calls are retried']]);
  });

  it('SessionEnd writes the session file; memctx lint is clean', () => {
    expect(hookRuns(world, 'session-end').runs.map((r) => r.code)).toEqual([0]);
    const sessions = readdirSync(join(world.project, '.memory/sessions'));
    expect(sessions).toHaveLength(1);
    const text = readFileSync(join(world.project, '.memory/sessions', sessions[0]), 'utf8');
    expect(section(text, 'Goal')).toBe(PROMPT);
    expect(section(text, 'Decisions')).toBe('- only idempotent payment calls are retried, because a retried charge could bill twice.');
    // A file the scripted model wrote within the session's first second may miss git's (new) mark: the list is what counts.
    expect(section(text, 'Changed Files').replaceAll(' (new)', '')).toBe('- src/payments/retry.js');
    expect(section(text, 'Next Steps')).toBe('- add an idempotency key to refunds.');
    const lint = memctx(['lint'], { cwd: world.project });
    expect({ code: lint.code, stdout: lint.stdout, stderr: lint.stderr }).toEqual({ code: 0, stdout: '✔ no problems in 2 memory files\n', stderr: '' });
  });
});

describe.skipIf(unavailable)(`memctx mcp without a memory directory, in Claude Code ${claudeVersion}`, () => {
  let world: World;
  let session: SessionResult;
  let list: { code: number; stdout: string };

  beforeAll(async () => {
    world = makeWorld();
    expect((await claudeCommand(world, ['mcp', 'add', 'memctx', '--', process.execPath, MEMCTX_BIN, 'mcp'])).code).toBe(0);
    list = await claudeCommand(world, ['mcp', 'list']);
    session = await runClaude(world, {
      prompt: 'What do you remember?',
      allowedTools: TOOLS,
      turns: [
        { content: [{ type: 'tool_use', id: 'toolu_view', name: 'mcp__memctx__memory', input: { command: 'view', path: '/memories' } }] },
        { content: [{ type: 'text', text: 'Nothing yet.' }] },
      ],
    });
  });
  afterAll(() => world?.cleanup());

  it('answers a tool error that names the fix, and Claude Code goes on', () => {
    expect(session.code).toBe(0);
    expect(session.agentRequests.map((r) => r.turn)).toEqual([0, 1]);
    // The server comes up without a memory directory, so the model gets a tool error naming the fix
    // (a server that exited would leave it with "No such tool available").
    expect(list.stdout).toMatch(/^memctx: .*memctx\.js mcp - ✔ Connected$/m);
    const view = toolResults(session.requests).get('toolu_view');
    expect(view?.isError).toBe(true);
    expect(view?.text.split('\n')[0]).toBe(`no .memory/ directory in …/${basename(world.project)} or any parent (run \`memctx init\` to create one, or pass --dir PATH)`);
  });
});
