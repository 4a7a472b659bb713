import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { callTool, hostProject, inProcessServer } from '../../helpers/mcp.js';

describe('memctx mcp', () => {
  const server = inProcessServer();

  it('flush answers with structured content', async () => {
    const { client, memory } = server;
    const six = { goal: 'ship the MCP server', progress: ['wrote the tools'], decisions: ['none'], changed_files: ['none'], blockers: ['none'], next_steps: ['write the docs'] };
    const dry = await callTool(client, 'flush', { ...six, dry_run: true });
    expect(dry.structured).toMatchObject({ written: false, path: expect.stringMatching(/^\/memories\/sessions\/.+\.md$/) });
    expect(existsSync(join(memory, 'sessions'))).toBe(false);
    const flush = await callTool(client, 'flush', six);
    expect(flush.isError).toBe(false);
    const saved = (flush.structured as { path: string; written: boolean }).path;
    expect(flush.structured).toMatchObject({ written: true });
    expect(readFileSync(join(memory, saved.slice('/memories/'.length)), 'utf8')).toContain('## Goal\n\nship the MCP server\n');
    expect(readFileSync(join(memory, 'MEMORY.md'), 'utf8')).toContain('— ship the MCP server');
    const index = await client.readResource({ uri: 'memctx://memory/MEMORY.md' });
    expect((index.contents[0] as { text: string }).text).toContain('(project_auth.md) — How login tokens work');
  });
});

describe('memctx mcp: reads nothing on the host outside the project', () => {
  const server = inProcessServer(hostProject);

  it('flush lists a changed file outside the project without reading it', async () => {
    const { client, outside } = server;
    const answer = await callTool(client, 'flush', { goal: 'g', progress: ['p'], decisions: ['none'], changed_files: [join(outside, 'secret.py')], blockers: ['none'], next_steps: ['none'], dry_run: true });
    expect(answer.isError).toBe(false);
    expect(answer.text).toContain('secret.py');
    expect(answer.text).not.toContain('leaked_function_name');
  });
});
