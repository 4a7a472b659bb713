import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_ELICITATION } from '../../src/mcp/sdk.js';
import { REPO } from '../helpers/cli.js';

describe('the MCP SDK as the server runs on it', () => {
  it('validates no elicitation answer (memctx asks the client for nothing)', () => {
    expect(NO_ELICITATION.getValidator({ type: 'object' })({ any: 'thing' })).toEqual({ valid: false, data: undefined, errorMessage: 'memctx asks the client for nothing (no elicitation)' });
  });

  it('a server up to its first tools/list answer loads no node:crypto (it loads with the first content hash)', () => {
    // The built server in a fresh process: what initialize and tools/list cost a client that starts memctx.
    const script = `
      const { createServer } = await import(${JSON.stringify(join(REPO, 'dist/src/mcp/server.js'))});
      const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
      const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
      const server = createServer({ root: process.cwd(), io: { cwd: process.cwd(), env: {}, home: process.cwd(), now: () => new Date(0) } });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      const client = new Client({ name: 't', version: '1' });
      await client.connect(clientSide);
      const { tools } = await client.listTools();
      console.log(JSON.stringify({ tools: tools.length, crypto: process.moduleLoadList.includes('NativeModule crypto') }));
    `;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: REPO, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ tools: 7, crypto: false });
  });
});
