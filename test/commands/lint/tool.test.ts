import { describe, expect, it } from 'vitest';
import { callTool, stdioServer } from '../../helpers/mcp.js';

describe('memctx mcp over stdio', () => {
  const server = stdioServer();

  it('lint answers with structured content', async () => {
    const { client } = server;
    const lint = await callTool(client, 'lint', {});
    expect(lint.structured).toMatchObject({ errorCount: expect.any(Number), warningCount: expect.any(Number) });
    expect(Array.isArray(lint.structured?.findings)).toBe(true);
  });
});
