// mcp/early.ts: the answers given before the SDK loads are the SDK Server's own bytes (both driven with
// the same lines), what is not answered early waits in order for the SDK, and through the built bin the
// bad inputs of issue 31 get what the SDK's server gives them.
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { SUPPORTED_PROTOCOL_VERSIONS, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { deserializeMessage } from '../../src/mcp/sdk.js';
import { EarlyAnswers, initializeAnswer, parseLine, PROTOCOL_VERSIONS, toolsListAnswer, unhandledAnswer } from '../../src/mcp/early.js';
import { computeToolsList, createServer } from '../../src/mcp/server.js';
import { BIN, REPO } from '../helpers/cli.js';
import { stdioProject } from '../helpers/mcp.js';

const io = { cwd: REPO, env: {}, home: REPO, now: () => new Date(0) };
const line = (message: unknown) => JSON.stringify(message);
const initialize = (params: unknown, id: unknown = 1) => line({ jsonrpc: '2.0', id, method: 'initialize', params });
const client = { capabilities: {}, clientInfo: { name: 't', version: '1' } };

/** What a fresh SDK Server (createServer) writes for this request, as its stdio transport serializes it. */
async function sdkAnswer(text: string): Promise<string> {
  let answered: (text: string) => void = () => undefined;
  const answer = new Promise<string>((resolve) => (answered = resolve));
  const transport: Transport = { start: async () => undefined, close: async () => undefined, send: async (message) => answered(`${JSON.stringify(message)}\n`) };
  const server = createServer({ root: REPO, io });
  await server.connect(transport);
  transport.onmessage?.(deserializeMessage(text));
  const sent = await answer;
  await server.close();
  return sent;
}

describe('the early answers are the SDK Server’s bytes', () => {
  let tools: Tool[];
  beforeAll(async () => {
    tools = await computeToolsList();
  });
  const early = (text: string) => {
    const message = parseLine(text);
    return initializeAnswer(message)?.text ?? unhandledAnswer(message) ?? toolsListAnswer(message, () => tools);
  };

  it('speaks the protocol versions the SDK speaks', () => {
    expect(PROTOCOL_VERSIONS).toEqual(SUPPORTED_PROTOCOL_VERSIONS);
  });

  it.each([
    ['a supported protocol version', initialize({ protocolVersion: '2025-06-18', ...client })],
    ['the oldest supported version, a string id', initialize({ protocolVersion: '2024-10-07', ...client }, 'a')],
    ['an unsupported version (the SDK answers its latest)', initialize({ protocolVersion: '1999-01-01', ...client })],
    ['capabilities of every kind', initialize({ protocolVersion: '2025-11-25', capabilities: { roots: { listChanged: true }, sampling: { tools: {} }, elicitation: {}, experimental: { x: {} }, tasks: { requests: { sampling: { createMessage: {} } } } }, clientInfo: { name: 't', version: '1', title: 'T' } })],
    ['tools/list before initialize', line({ jsonrpc: '2.0', id: 2, method: 'tools/list' })],
    ['tools/list with a cursor', line({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { cursor: 'next' } })],
    ["Codex's tools/list: a progress token in _meta", line({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { progressToken: 0 } } })],
    ["Claude Code's first line (server/discover): the SDK's Method not found", line({ jsonrpc: '2.0', id: 'server-discover-probe-1', method: 'server/discover', params: {} })],
    ['server/discover without params, a number id', line({ jsonrpc: '2.0', id: 7, method: 'server/discover' })],
    ["Codex's initialize", initialize({ protocolVersion: '2025-06-18', capabilities: { experimental: { 'codex/auth-change': {} }, elicitation: { form: {}, url: {} } }, clientInfo: { name: 'codex-mcp-client', title: 'Codex', version: '0.169.0' } }, 0)],
  ])('%s: answered early, the same bytes', async (_name, text) => {
    const mine = early(text);
    expect(mine).toBeDefined();
    expect(mine).toBe(await sdkAnswer(text));
  });

  it.each([
    ['no protocol version', initialize(client)],
    ['a capability of the wrong type', initialize({ protocolVersion: '2025-06-18', capabilities: { roots: { listChanged: 1 } }, clientInfo: client.clientInfo })],
    ['icons in clientInfo', initialize({ protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { ...client.clientInfo, icons: [] } })],
    ['params with _meta', initialize({ protocolVersion: '2025-06-18', ...client, _meta: {} })],
    ['a fractional id', initialize({ protocolVersion: '2025-06-18', ...client }, 1.5)],
    ['a key JSON-RPC has not', line({ jsonrpc: '2.0', id: 2, method: 'tools/list', extra: 1 })],
    ['a cursor that is no string', line({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { cursor: 5 } })],
    ['a fractional progress token', line({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: { progressToken: 0.5 } } })],
    ['_meta naming a task', line({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/related-task': { taskId: 't' } } } })],
    ['server/discover with _meta', line({ jsonrpc: '2.0', id: 8, method: 'server/discover', params: { _meta: {} } })],
    ['server/discover as a notification (no id)', line({ jsonrpc: '2.0', method: 'server/discover' })],
    ['a ping', line({ jsonrpc: '2.0', id: 4, method: 'ping' })],
    ['a batch', `[${line({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}]`],
    ['no JSON', 'not json{'],
  ])('%s: left to the SDK', (_name, text) => {
    expect(early(text)).toBeUndefined();
  });

  it('leaves tools/list to the SDK where the build wrote no list', () => {
    expect(toolsListAnswer(parseLine(line({ jsonrpc: '2.0', id: 2, method: 'tools/list' })), () => undefined)).toBeUndefined();
  });
});

describe('EarlyAnswers', () => {
  const init = initialize({ protocolVersion: '2025-06-18', ...client });
  const notification = '{"method":"notifications/initialized","jsonrpc":"2.0"}';
  const list = line({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
  const call = line({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'memory', arguments: {} } });
  const setup = () => {
    const written: string[] = [];
    let needed = 0;
    const early = new EarlyAnswers({ write: (text) => written.push(text), tools: () => [], needed: () => needed++ });
    return { early, written, needed: () => needed };
  };
  const handOver = async (early: EarlyAnswers) => {
    const fed: string[] = [];
    await early.handOver((chunk) => fed.push(chunk.toString()), Promise.resolve());
    return fed.join('');
  };

  it('answers initialize and tools/list across chunks, then feeds the SDK the initialize and what it kept, in order', async () => {
    const { early, written, needed } = setup();
    const bytes = Buffer.from(`${init}\r\n${notification}\n${list}\n${call}\n{"jsonrpc":`);
    early.read(bytes.subarray(0, 10));
    expect(written).toEqual([]);
    early.read(bytes.subarray(10));
    expect(written.map((text) => (JSON.parse(text) as { id: number }).id)).toEqual([1, 2]);
    expect([early.initialized, early.ended, needed()]).toEqual([1, true, 2]);
    early.read(Buffer.from('"2.0"}\n'));
    expect(await handOver(early)).toBe(`${init}\n${notification}\n${call}\n{"jsonrpc":"2.0"}\n`);
  });

  it('answers nothing after a line it leaves to the SDK (answers keep their order)', async () => {
    const { early, written } = setup();
    early.read(Buffer.from(`not json{\n${init}\n${list}\n`));
    expect([written, early.initialized, early.ended]).toEqual([[], undefined, true]);
    expect(await handOver(early)).toBe(`not json{\n${init}\n${list}\n`);
  });

  it('waits for the SDK to answer the initialize before feeding the rest, then passes chunks straight on', async () => {
    const { early, written } = setup();
    early.read(Buffer.from(`${init}\n${list}\n`));
    const fed: string[] = [];
    let answered: () => void = () => undefined;
    const done = early.handOver((chunk) => fed.push(chunk.toString()), new Promise((resolve) => (answered = resolve)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(fed).toEqual([`${init}\n`]);
    // While the SDK answers the initialize: a notification (kept for it) and a call (the SDK's).
    early.read(Buffer.from(`${notification}\n${call}\n`));
    answered();
    await done;
    early.read(Buffer.from('next'));
    expect([written.length, fed]).toEqual([2, [`${init}\n`, `${notification}\n`, `${call}\n`, 'next']]);
  });

  it('a line still open past 64 KiB is the SDK’s to read', async () => {
    const { early, needed } = setup();
    early.read(Buffer.from(`{"a":"${'x'.repeat(70 * 1024)}`));
    expect([early.ended, needed()]).toEqual([true, 1]);
    expect((await handOver(early)).length).toBe(70 * 1024 + 6);
  });
});

describe('memctx mcp (built bin): bad inputs', () => {
  const init = initialize({ protocolVersion: '2025-06-18', ...client });
  const list = (id: number) => line({ jsonrpc: '2.0', id, method: 'tools/list' });
  const view = (id: number) => line({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'memory', arguments: { command: 'view', path: '/memories' } } });
  const built = () => readFileSync(join(REPO, 'dist/src/mcp/tools-list.json'), 'utf8').trim();

  /** The server's answers to this input (stdin closed after it), by id, with its exit code and stderr. */
  type Reply = { id: unknown; result?: Record<string, unknown>; error?: { code: number; message: string } };
  function serve(input: string): { code: number | null; answers: Map<unknown, Reply>; order: unknown[]; stderr: string } {
    const dir = stdioProject();
    const run = spawnSync(process.execPath, [BIN, '--dir', join(dir, '.memory'), 'mcp'], { cwd: dir, input, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: dir }, maxBuffer: 1 << 28, timeout: 9000 });
    const replies = run.stdout.split('\n').filter(Boolean).map((text) => JSON.parse(text) as Reply);
    return { code: run.status, answers: new Map(replies.map((r) => [r.id, r])), order: replies.map((r) => r.id), stderr: run.stderr };
  }

  it('tools/call before tools/list: each answered, the list the built one', () => {
    const { code, answers, order } = serve(`${init}\n${view(5)}\n${list(6)}\n`);
    expect([code, order.length]).toEqual([0, 3]);
    expect(answers.get(1)?.result?.protocolVersion).toBe('2025-06-18');
    expect(answers.get(5)?.result?.isError).toBeUndefined();
    expect(JSON.stringify(answers.get(6)?.result?.tools)).toBe(built());
  });

  it('two requests in one chunk and stdin closed at once: both answered before the exit', () => {
    const { code, answers } = serve(`${init}\n${view(2)}\n`);
    expect([code, [...answers.keys()].sort()]).toEqual([0, [1, 2]]);
    expect((answers.get(2)?.result?.content as Array<{ text: string }>)[0].text).toContain('project_auth.md');
  });

  it('invalid JSON first: a parse error, and the rest answered', () => {
    const { code, answers } = serve(`not json{\n${init}\n${list(2)}\n`);
    expect([code, answers.get(null)?.error?.code, answers.get(1)?.result?.protocolVersion, JSON.stringify(answers.get(2)?.result?.tools)]).toEqual([0, -32700, '2025-06-18', built()]);
  });

  it('a batch (JSON array) is a parse error; the server carries on', () => {
    const { code, answers, order } = serve(`[${init},${list(2)}]\n${list(3)}\n`);
    expect([code, order.length, answers.get(null)?.error?.code, JSON.stringify(answers.get(3)?.result?.tools)]).toEqual([0, 2, -32700, built()]);
  });

  it('a 10 MB line: answered by the SDK after the early answers, then the next line', () => {
    const { code, answers, order } = serve(`${init}\n{"jsonrpc":"2.0","id":9,"method":"no/such","params":{"a":"${'y'.repeat(10 * 1024 * 1024)}"}}\n${list(4)}\n`);
    expect([code, order.length, answers.get(9)?.error, JSON.stringify(answers.get(4)?.result?.tools)]).toEqual([0, 3, { code: -32601, message: 'Method not found' }, built()]);
  });

  it('stdin closed before anything arrives: exit 0, nothing written', () => {
    expect(serve('')).toEqual({ code: 0, answers: new Map(), order: [], stderr: '' });
  });
});

describe('the modules that answer first', () => {
  it.each([
    ['Codex', []],
    ['Claude Code (server/discover first)', [line({ jsonrpc: '2.0', id: 'server-discover-probe-1', method: 'server/discover', params: {} })]],
  ])('the built bin answers tools/list before any SDK module loads (Node logs each module it loads): %s', (_client, first) => {
    const dir = stdioProject();
    const file = join(dir, 'out.txt');
    const fd = openSync(file, 'w');
    const input = [...first, initialize({ protocolVersion: '2025-06-18', ...client }), '{"jsonrpc":"2.0","method":"notifications/initialized"}', line({ jsonrpc: '2.0', id: 2, method: 'tools/list' })].join('\n');
    // stdout and stderr into one file, so the answers and Node's log lines keep their order.
    spawnSync(process.execPath, [BIN, '--dir', join(dir, '.memory'), 'mcp'], { cwd: dir, input: `${input}\n`, stdio: ['pipe', fd, fd], env: { PATH: process.env.PATH ?? '', HOME: dir, NODE_DEBUG: 'esm' }, timeout: 9000 });
    closeSync(fd);
    const lines = readFileSync(file, 'utf8').split('\n');
    const answered = lines.findIndex((text) => text.startsWith('{"result":{"tools":'));
    const sdk = lines.findIndex((text) => text.includes('/@modelcontextprotocol/sdk/'));
    expect([answered > 0, sdk > answered]).toEqual([true, true]);
    expect(lines.filter((text) => text.startsWith('{')).map((text) => (JSON.parse(text) as { id: unknown }).id)).toEqual([...(first.length ? ['server-discover-probe-1'] : []), 1, 2]);
  });

  it.each(['dist/src/mcp/early.js', 'dist/src/commands/mcp/cli.js'])('%s imports no SDK module before the first answers', (file) => {
    const statics = [...readFileSync(join(REPO, file), 'utf8').matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]);
    expect(statics.filter((specifier) => specifier.includes('modelcontextprotocol') || /mcp\/(server|sdk)\.js$/.test(specifier))).toEqual([]);
  });
});

