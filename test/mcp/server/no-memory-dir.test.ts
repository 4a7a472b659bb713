// memctx mcp started where there is no memory directory: it still serves, and every tool call is a
// tool error that names the fix (a server that exited would leave the agent with "no such tool").
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN, removeDir, tempDir } from '../../helpers/cli.js';

describe('memctx mcp without a memory directory', () => {
  let dir: string;
  let client: Client;
  beforeAll(async () => {
    dir = tempDir('memctx-mcp-none-');
    const env = { PATH: process.env.PATH ?? '', NO_COLOR: '1', HOME: join(dir, 'home') };
    client = new Client({ name: 'memctx-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], cwd: dir, env, stderr: 'pipe' }));
  });
  afterAll(async () => {
    await client.close();
    removeDir(dir);
  });

  it('lists its tools and answers each call with the error and the fix', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['flush', 'lint', 'memory', 'pack', 'search', 'status', 'verify']);
    // No host path in an MCP answer (issue 20 item 9): the folder is cut to its last part.
    const expected = `no .memory/ directory in …/${basename(dir)} or any parent (run \`memctx init\` to create one, or pass --dir PATH)`;
    for (const [name, args] of [['memory', { command: 'view', path: '/memories' }], ['search', { query: 'x' }], ['lint', {}]] as const) {
      const result = (await client.callTool({ name, arguments: args })) as { content: Array<{ text: string }>; isError?: boolean };
      expect([name, result.isError, result.content.map((c) => c.text).join('\n')]).toEqual([name, true, expected]);
    }
    const index = await client.readResource({ uri: 'memctx://memory/MEMORY.md' });
    expect(index.contents).toEqual([{ uri: 'memctx://memory/MEMORY.md', mimeType: 'text/markdown', text: '' }]);
  });
});
