// mcp/cli.ts: `memctx mcp` over stdio through the built bin: a line that is not JSON-RPC gets a parse
// error and the server carries on; a message past its 32 MiB buffer ends it with one line and exit 2.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, tempDir } from '../../helpers/cli.js';
import { stdioProject as setup } from '../../helpers/mcp.js';

const MiB = 1024 * 1024;

describe('memctx mcp: what is not a message', () => {
  it('answers a malformed line with a parse error and keeps serving', async () => {
    const dir = setup();
    try {
      const child = spawn(process.execPath, [BIN, '--dir', join(dir, '.memory'), 'mcp'], { cwd: dir, env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' } });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
      const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
      child.stdin.end(`${JSON.stringify(init)}\nnot json{\n{"jsonrpc":"2.0","id":7,"method":"no/such/method"}\n${JSON.stringify(list)}\n`);
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code).toBe(0);
      const replies = out.trim().split('\n').map((line) => JSON.parse(line) as { id: number | null; error?: { code: number } });
      expect(replies.find((r) => r.id === null)?.error?.code).toBe(-32700);
      expect(replies.find((r) => r.id === 7)?.error?.code).toBe(-32601);
      expect(replies.some((r) => r.id === 2 && !r.error)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a message past the 32 MiB buffer: one line on stderr, exit 2', async () => {
    const dir = tempDir('memctx-mcp-huge-');
    mkdirSync(join(dir, '.memory'));
    const child = spawn(process.execPath, [BIN, '--dir', join(dir, '.memory'), 'mcp'], { cwd: dir, env: { PATH: process.env.PATH ?? '', HOME: dir }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.resume();
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.stdin.on('error', () => undefined);
    child.stdin.write(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"memory","arguments":{"command":"create","path":"/memories/x.md","file_text":"${'x'.repeat(33 * MiB)}"}}}\n`);
    expect(await exit).toBe(2);
    expect(stderr.trim().split('\n')).toEqual(['memctx mcp: a message over 32 MiB arrived on stdin, more than the server reads; it stopped (a memory file holds at most 1 MiB: write large text as several files)']);
  }, 60_000);
});
