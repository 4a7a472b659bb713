// Issue 20 item 6, through the built bin: a 9.9 MiB or 10.1 MiB file_text gets a tool error and the
// server keeps serving (10.1 MiB used to exceed the SDK's 10 MiB buffer: exit 0, no answer, no log); a
// message past the server's buffer ends it (test/commands/mcp/cli.test.ts).
import { mkdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN, tempDir } from '../../helpers/cli.js';

const MiB = 1024 * 1024;

describe('memctx mcp and oversized messages', () => {
  it('refuses 9.9 MiB and 10.1 MiB file_text with a tool error and answers the next call', async () => {
    const dir = tempDir('memctx-mcp-big-');
    mkdirSync(join(dir, '.memory'));
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, '--dir', join(dir, '.memory'), 'mcp'], cwd: dir, env: { PATH: process.env.PATH ?? '', HOME: dir }, stderr: 'pipe' });
    const client = new Client({ name: 'memctx-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      for (const size of [Math.round(9.9 * MiB), Math.round(10.1 * MiB)]) {
        const result = (await client.callTool({ name: 'memory', arguments: { command: 'create', path: '/memories/big.md', file_text: 'x'.repeat(size) } })) as { isError?: boolean; content: Array<{ text: string }> };
        expect(result.isError).toBe(true);
        expect(result.content[0].text).toBe(`Nothing written: file_text is ${size} bytes, over memctx's 1048576-byte limit for a memory file (/memories/big.md). Split it into several smaller memory files.`);
      }
      const after = (await client.callTool({ name: 'memory', arguments: { command: 'view', path: '/memories' } })) as { isError?: boolean };
      expect(after.isError).toBeFalsy();
      expect(existsSync(join(dir, '.memory', 'big.md'))).toBe(false);
    } finally {
      await client.close();
    }
  }, 60_000);
});
