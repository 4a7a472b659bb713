import { describe, expect, it } from 'vitest';
import { callTool, inProcessServer } from '../../helpers/mcp.js';

describe('memctx mcp', () => {
  const server = inProcessServer();

  it('lint answers with structured content', async () => {
    const { client } = server;
    const lint = await callTool(client, 'lint', {});
    expect(lint.structured).toMatchObject({ errorCount: expect.any(Number), warningCount: expect.any(Number) });
    expect(Array.isArray(lint.structured?.findings)).toBe(true);
  });
});
