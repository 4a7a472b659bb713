// The bundled server answers tools/list from a list scripts/bundle.mjs computed at build time (so the
// JSON Schema converter never loads); it must be the list the tools' schemas give now.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { computeToolsList, listTools } from '../../src/mcp/server.js';
import { BIN, removeDir, tempDir } from '../helpers/cli.js';

describe('tools/list', () => {
  let dir: string;
  let client: Client;
  beforeAll(async () => {
    dir = tempDir('memctx-mcp-list-');
    const env = { PATH: process.env.PATH ?? '', NO_COLOR: '1', HOME: join(dir, 'home') };
    client = new Client({ name: 'memctx-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, '--dir', join(dir, '.memory'), 'mcp'], cwd: dir, env, stderr: 'pipe' }));
  });
  afterAll(async () => {
    await client.close();
    removeDir(dir);
  });

  it('the built bin answers the list the tools define, schemas included', async () => {
    const computed = await computeToolsList();
    const { tools } = await client.listTools();
    expect(tools).toEqual(computed);
    expect(computed.map((t) => [t.name, typeof t.inputSchema.properties, t.outputSchema?.type])).toEqual([
      ['memory', 'object', undefined],
      ['search', 'object', 'object'],
      ['pack', 'object', 'object'],
      ['status', 'object', 'object'],
      ['flush', 'object', 'object'],
      ['lint', 'object', 'object'],
      ['verify', 'object', 'object'],
    ]);
  });

  it('outside the bundle the list is computed from the schemas', async () => {
    expect(await listTools()).toEqual(await computeToolsList());
  });
});
