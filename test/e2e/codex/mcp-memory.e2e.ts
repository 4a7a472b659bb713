// memctx's MCP server inside the real Codex CLI, as `memctx init --agent codex` wires it: memctx is a
// devDependency (the project's node_modules/.bin/memctx is this repository's bin), so init writes
// `[mcp_servers.memctx]` to the project's .codex/config.toml starting it with `npx --no-install memctx mcp`.
// Codex reads that file only for a trusted project (the harness trusts it in CODEX_HOME). Its MCP tools
// are deferred: the scripted model finds them with `tool_search` (namespace `mcp__memctx`), then calls
// `memory` create and view through Codex's MCP client. `codex exec` does not wait for its MCP servers
// before the first request: until `npx … memctx mcp` is up, a search finds nothing and a call answers
// "unsupported call: mcp__memctxmemory", so the model searches again, a moment later, as a real one would.
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Turn } from './stand-in.js';
import { codexCommand, codexVersion, makeWorld, MEMCTX_BIN, memctx, runCodex, unavailable, type SessionResult, type World } from './harness.js';
import { parseMemoryText } from '../../../src/kernel/store/parse.js';

if (unavailable) console.log(`skipped: ${unavailable}`);

const NOTE = '---\nname: Rate limits\ndescription: The API limits each client with a token bucket\ntype: project\n---\n\nA token bucket of 20 requests per client, refilled each second.\n';
const NAMESPACE = 'mcp__memctx';
/** Searches before the model gives up (each after half a second): the server gets 10 s to start. */
const MAX_SEARCHES = 20;

/** The namespace of memctx's tools, once a tool_search in this request's input has offered it. */
function offered(body: any): any {
  const outputs = (body?.input ?? []).filter((i: any) => i.type === 'tool_search_output');
  return outputs.flatMap((o: any) => o.tools ?? []).find((t: any) => t.type === 'namespace' && t.name === NAMESPACE && t.tools?.some((f: any) => f.name === 'memory'));
}

/** The scripted model: search until memctx's tools are offered, then create the note, view it, and answer. */
function script(): { turn: (body: any) => Turn; searches: () => number } {
  let searches = 0;
  let step = 0;
  const turn = (body: any): Turn => {
    if (step === 0 && !offered(body)) {
      if (searches === MAX_SEARCHES) return { items: [{ type: 'message', text: `memctx's tools were not offered after ${searches} searches.` }] };
      searches += 1;
      return { items: [{ type: 'tool_search_call', call_id: `call_search_${searches}`, arguments: { query: 'memory files' } }], delayMs: searches > 1 ? 500 : 0 };
    }
    step += 1;
    if (step === 1) return { items: [{ type: 'function_call', namespace: NAMESPACE, name: 'memory', call_id: 'call_create', arguments: { command: 'create', path: '/memories/note.md', file_text: NOTE } }] };
    if (step === 2) return { items: [{ type: 'function_call', namespace: NAMESPACE, name: 'memory', call_id: 'call_view', arguments: { command: 'view', path: '/memories/note.md' } }] };
    return { items: [{ type: 'message', text: 'Saved the rate limits to memory.' }] };
  };
  return { turn, searches: () => searches };
}

/** The text of the tool output answering `callId`, from the input of a later request. */
function outputOf(session: SessionResult, callId: string): string {
  for (const { body } of session.requests) {
    const item = (body?.input ?? []).find((i: any) => i.type === 'function_call_output' && i.call_id === callId);
    if (!item) continue;
    const output = item.output;
    return typeof output === 'string' ? output : (output as Array<{ text?: string }>).map((part) => part.text ?? '').join('\n');
  }
  throw new Error(`no output for ${callId} reached the model`);
}

describe.skipIf(unavailable)(`memctx's MCP memory tool in Codex ${codexVersion}`, () => {
  let world: World;
  let init: ReturnType<typeof memctx>;
  let session: SessionResult;
  let listed: Awaited<ReturnType<typeof codexCommand>>;
  let untrusted: Awaited<ReturnType<typeof codexCommand>>;
  let model: ReturnType<typeof script>;

  beforeAll(async () => {
    world = makeWorld();
    // memctx as a devDependency: npm links the package's bin into node_modules/.bin.
    mkdirSync(join(world.project, 'node_modules/.bin'), { recursive: true });
    symlinkSync(MEMCTX_BIN, join(world.project, 'node_modules/.bin/memctx'));
    init = memctx(['init', '--agent', 'codex'], { cwd: world.project });
    expect(init.code).toBe(0);
    untrusted = await codexCommand(world, ['mcp', 'list', '--json'], { trusted: false });
    listed = await codexCommand(world, ['mcp', 'list']);
    model = script();
    session = await runCodex(world, { prompt: 'Remember how the API limits requests', turns: Array.from({ length: MAX_SEARCHES + 3 }, () => model.turn) });
  });
  afterAll(() => world?.cleanup());

  it('init wrote the server to the project config, started through the project bin', () => {
    expect(init.stdout).toContain('created .codex/config.toml: mcp_servers.memctx');
    expect(init.stdout).toContain("commands start the project's memctx (node_modules/.bin/memctx)");
    expect(readFileSync(join(world.project, '.codex/config.toml'), 'utf8').trimEnd()).toBe('[mcp_servers.memctx]\ncommand = "npx"\nargs = [ "--no-install", "memctx", "mcp" ]');
  });

  it('`codex mcp list` shows the server once the project is trusted, and not before', () => {
    expect(untrusted.code).toBe(0);
    expect(JSON.parse(untrusted.stdout)).toEqual([]);
    expect(listed.code).toBe(0);
    const row = listed.stdout.split('\n').find((line) => line.startsWith('memctx '));
    expect(row?.split(/\s{2,}/)).toEqual(['memctx', 'npx', '--no-install memctx mcp', '-', '-', 'enabled', 'Unsupported']);
  });

  it('tool_search offered the memctx namespace with the memory tool', () => {
    const searches = model.searches();
    expect(searches, `${searches} searches`).toBeGreaterThanOrEqual(1);
    expect(searches, `${searches} searches`).toBeLessThan(MAX_SEARCHES);
    const namespace = session.requests.map((r) => offered(r.body)).find(Boolean);
    expect(namespace.tools.map((t: any) => t.name)).toEqual(expect.arrayContaining(['memory', 'search', 'pack', 'lint']));
    const memory = namespace.tools.find((t: any) => t.name === 'memory');
    expect(memory.parameters.properties.command.enum).toEqual(['view', 'create', 'str_replace', 'insert', 'delete', 'rename']);
  });

  it('the model created and viewed /memories/note.md through Codex\'s MCP client', () => {
    expect(session.code).toBe(0);
    expect(session.requests.filter((r) => r.path.endsWith('/responses'))).toHaveLength(model.searches() + 3);
    expect(session.stderr.match(/^mcp: memctx\/memory \(completed\)$/gm)).toHaveLength(2);
    expect(outputOf(session, 'call_create')).toContain('File created successfully at: /memories/note.md');
    const view = outputOf(session, 'call_view');
    expect(view).toContain("Here's the content of /memories/note.md with line numbers:");
    expect(view).toMatch(/\d+\tA token bucket of 20 requests per client, refilled each second\./);
  });

  it('the file is in .memory/ with valid frontmatter, and MEMORY.md lists it', () => {
    const text = readFileSync(join(world.project, '.memory/note.md'), 'utf8');
    const parsed = parseMemoryText('note.md', text, { mtimeMs: 0, size: 0 });
    expect(parsed.hasFrontmatter).toBe(true);
    expect(parsed.data).toMatchObject({ name: 'Rate limits', description: 'The API limits each client with a token bucket', type: 'project' });
    expect(parsed.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(parsed.body.trim()).toBe('A token bucket of 20 requests per client, refilled each second.');
    const index = readFileSync(join(world.project, '.memory/MEMORY.md'), 'utf8');
    expect(index).toMatch(/\[Rate limits\]\(note\.md\)/);
    expect(index).toContain('The API limits each client with a token bucket');
    const lint = memctx(['lint'], { cwd: world.project });
    expect(lint, lint.stdout + lint.stderr).toMatchObject({ code: 0 });
  });
});
