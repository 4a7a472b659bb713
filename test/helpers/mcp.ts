/** An in-process MCP client on createServer (InMemoryTransport): the server's own code, no child process. */
import { mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createServer } from '../../src/mcp/server.js';
import { BIN, tempDir } from './cli.js';

export interface ToolAnswer {
  text: string;
  isError: boolean;
  structured?: Record<string, unknown>;
}

export async function connectInProcess(root: string, cwd: string, now = () => new Date('2026-11-24T12:00:00Z')): Promise<Client> {
  const server = createServer({ root, io: { cwd, env: {}, home: cwd, now } });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'memctx-test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

export async function callTool(client: Client, name: string, args: unknown): Promise<ToolAnswer> {
  const result = (await client.callTool({ name, arguments: args as Record<string, unknown> })) as { content: Array<{ text: string }>; isError?: boolean; structuredContent?: Record<string, unknown> };
  return { text: result.content.map((c) => c.text).join('\n'), isError: result.isError === true, structured: result.structuredContent };
}

/** The built bin's `mcp` over stdio, run in dir with dir/.memory as the memory directory and dir as HOME. */
export async function connectStdio(dir: string): Promise<Client> {
  const env = { PATH: process.env.PATH ?? '', NO_COLOR: '1', HOME: dir, XDG_CACHE_HOME: process.env.XDG_CACHE_HOME ?? join(dir, '.cache') };
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, '--dir', join(dir, '.memory'), 'mcp'], cwd: dir, env, stderr: 'pipe' });
  const client = new Client({ name: 'memctx-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** A project whose .memory/ holds project_auth.md (with an unknown key, `owner`) and twice.md (a word on two lines). */
export function stdioProject(): string {
  const dir = tempDir('memctx-mcp-');
  const memory = join(dir, '.memory');
  mkdirSync(memory);
  writeFileSync(join(memory, 'project_auth.md'), '---\nname: auth\ndescription: How login tokens work\ntype: project\nowner: team-a\nupdated: 2026-01-01T00:00:00Z\n---\n\nTokens are JWTs.\nThey expire after 1h.\nRefresh uses a cookie.\n');
  writeFileSync(join(memory, 'twice.md'), '---\nname: twice\ndescription: a word twice\ntype: project\n---\n\nsame\nsame\n');
  return dir;
}

export const HOST_SECRET = 'DATABASE_URL=postgres://admin:hunter2@db.internal/prod';

/**
 * A stdioProject and, outside it, host files holding HOST_SECRET (a shadow file, a transcript-like
 * leak.jsonl, secret.py), plus a .env in the project and logs/link.jsonl linking out to leak.jsonl.
 */
export function hostProject(): { dir: string; outside: string } {
  const dir = stdioProject();
  const outside = tempDir('memctx-host-');
  writeFileSync(join(outside, 'shadow'), `root:*:19000:0:99999:7:::\n\n${HOST_SECRET}\n`);
  writeFileSync(join(outside, 'leak.jsonl'), `${HOST_SECRET}\n`);
  writeFileSync(join(outside, 'secret.py'), 'def leaked_function_name():\n    pass\n');
  writeFileSync(join(dir, '.env'), `${HOST_SECRET}\n`);
  mkdirSync(join(dir, 'logs'));
  symlinkSync(join(outside, 'leak.jsonl'), join(dir, 'logs', 'link.jsonl'));
  return { dir, outside };
}

/**
 * For a describe block: one project (stdioProject unless `make` says otherwise) and one stdio client
 * for all its tests, set up in beforeAll and closed in afterAll. Read its fields inside the tests.
 */
export function stdioServer<T extends { dir: string }>(make: () => T = () => ({ dir: stdioProject() }) as T): T & { memory: string; client: Client } {
  const server = {} as T & { memory: string; client: Client };
  beforeAll(async () => {
    Object.assign(server, make());
    server.memory = join(server.dir, '.memory');
    server.client = await connectStdio(server.dir);
  });
  afterAll(async () => {
    await server.client.close();
    rmSync(server.dir, { recursive: true, force: true });
  });
  return server;
}

/**
 * stdioServer's in-process twin, for the tools' own tests (the stdio transport is test/mcp/server.test.ts's):
 * the same project and the same io the bin's `memctx --dir <dir>/.memory mcp` gets (cwd and HOME the
 * project, its PATH, NO_COLOR and XDG_CACHE_HOME, the real clock), served by createServer with no child process.
 */
export function inProcessServer<T extends { dir: string }>(make: () => T = () => ({ dir: stdioProject() }) as T): T & { memory: string; client: Client } {
  const server = {} as T & { memory: string; client: Client };
  beforeAll(async () => {
    Object.assign(server, make());
    server.memory = join(server.dir, '.memory');
    const env = { PATH: process.env.PATH ?? '', NO_COLOR: '1', HOME: server.dir, XDG_CACHE_HOME: process.env.XDG_CACHE_HOME ?? join(server.dir, '.cache') };
    const mcp = createServer({ root: realpathSync(server.memory), io: { cwd: server.dir, env, home: server.dir, now: () => new Date() } });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcp.connect(serverSide);
    server.client = new Client({ name: 'memctx-test', version: '1.0.0' });
    await server.client.connect(clientSide);
  });
  afterAll(async () => {
    await server.client.close();
    rmSync(server.dir, { recursive: true, force: true });
  });
  return server;
}

const opened: Client[] = [];

/** Close every client openInProcess opened (run it in afterEach). */
export async function closeOpened(): Promise<void> {
  for (const c of opened.splice(0)) await c.close();
}

/** A project whose .memory/ holds project_auth.md (importance 3), and an in-process client on it. */
export async function openInProcess(): Promise<{ dir: string; root: string; client: Client }> {
  const dir = realpathSync(tempDir('memctx-mcp-hard-'));
  const root = join(dir, '.memory');
  mkdirSync(root);
  writeFileSync(join(root, 'project_auth.md'), '---\nname: auth\ndescription: How login tokens work\ntype: project\nimportance: 3\n---\n\nTokens are JWTs.\n');
  const client = await connectInProcess(root, dir);
  opened.push(client);
  return { dir, root, client };
}
