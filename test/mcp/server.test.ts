// The MCP server itself (src/mcp/server.ts) over stdio through the built bin: what it lists, and how it
// survives a bad client. Each tool has its own file in test/commands/<command>/tool.test.ts.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, stateOf } from '../helpers/cli.js';
import { stdioProject as setup, stdioServer } from '../helpers/mcp.js';

describe('memctx mcp over stdio', () => {
  const server = stdioServer();

  it('lists the seven tools and the MEMORY.md resource', async () => {
    const { client } = server;
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['flush', 'lint', 'memory', 'pack', 'search', 'status', 'verify']);
    const memoryTool = tools.find((t) => t.name === 'memory')!;
    expect(Object.keys(memoryTool.inputSchema.properties ?? {}).sort()).toEqual(['command', 'file_text', 'force', 'insert_line', 'insert_text', 'new_path', 'new_str', 'old_path', 'old_str', 'path', 'view_range']);
    expect((memoryTool.inputSchema.properties as Record<string, { enum?: string[] }>).command.enum).toEqual(['view', 'create', 'str_replace', 'insert', 'delete', 'rename']);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['memctx://memory/MEMORY.md']);
  });
});

describe('memctx mcp: protocol abuse', () => {

  it('a client that disconnects mid-call leaves the file whole or absent, and no lock or temporary file', async () => {
    const dir = setup();
    const memory = join(dir, '.memory');
    try {
      const big = `# Big\n\n${'a line of text that is long enough\n'.repeat(20_000)}`;
      const child = spawn(process.execPath, [BIN, '--dir', memory, 'mcp'], { cwd: dir, env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', HOME: dir } });
      const closed = new Promise((resolve) => child.on('close', resolve));
      const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
      const create = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'memory', arguments: { command: 'create', path: '/memories/big.md', file_text: big } } };
      // The client hangs up right after asking (stdin closes with the call in flight); the barrier is the
      // server's exit, which comes after it finished that call.
      child.stdin.end(`${JSON.stringify(init)}\n${JSON.stringify(create)}\n`);
      await closed;
      expect(existsSync(join(stateOf(memory), 'lock'))).toBe(false);
      const names = readdirSync(memory);
      expect(names.filter((n) => !['.memctx', 'MEMORY.md', 'big.md', 'project_auth.md', 'twice.md'].includes(n))).toEqual([]);
      if (existsSync(join(memory, 'big.md'))) expect(readFileSync(join(memory, 'big.md'), 'utf8').endsWith(big)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
