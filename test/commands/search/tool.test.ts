import { describe, expect, it } from 'vitest';
import { callTool, inProcessServer } from '../../helpers/mcp.js';

describe('memctx mcp', () => {
  const server = inProcessServer();

  it('search answers with structured content', async () => {
    const { client } = server;
    const search = await callTool(client, 'search', { query: 'tokens', limit: 3 });
    expect((search.structured?.hits as Array<{ path: string }>).map((h) => h.path)).toContain('project_auth.md');
  });
});
