/** An in-process MCP client on createServer (InMemoryTransport): the server's own code, no child process. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createServer } from '../../src/mcp/server.js';

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
