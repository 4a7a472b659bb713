// Issue 20 items 4 and 9 (MCP parts) and issue 21 item 4, across the tools, through the MCP server
// in-process. Each test fails on the code before them (noted per test). What concerns one tool is in
// test/mcp/tools/<tool>.test.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { REPO } from '../helpers/cli.js';
import { callTool, closeOpened, openInProcess as open } from '../helpers/mcp.js';
import { SECRETS_24 } from '../helpers/secrets24.js';

afterEach(closeOpened);

const memory = (client: Client, args: Record<string, unknown>) => callTool(client, 'memory', args);

describe('no host path in an answer (issue 20 item 9)', () => {
  it('status names the transcript by its last part, lint its findings under /memories', async () => {
    const { dir, client } = await open();
    writeFileSync(join(dir, 'session.jsonl'), readFileSync(join(REPO, 'fixtures/transcripts/claude-session.jsonl')));
    const status = await callTool(client, 'status', { transcript: 'session.jsonl' });
    expect(status.isError).toBe(false);
    expect(status.structured?.file).toBe('…/session.jsonl');
    const lint = await callTool(client, 'lint', {});
    for (const answer of [status, lint]) expect(`${answer.text}${JSON.stringify(answer.structured)}`).not.toContain(dir);
  });
});

describe('no secret reaches the model (issue 20 item 4: MCP pack returned 24 of 24)', () => {
  it('pack, view, search and the MEMORY.md resource mask all 24 test secrets', async () => {
    const { root, client } = await open();
    SECRETS_24.forEach((s, i) => writeFileSync(join(root, `s${i}.md`), `---\nname: s${i}\ndescription: credentials for ${s.shape}\ntype: project\n---\n\n${s.line}\n`));
    const pack = await callTool(client, 'pack', { task: 'credentials', budget: 50_000 });
    expect(pack.isError).toBe(false);
    const views = await Promise.all(SECRETS_24.map((_, i) => memory(client, { command: 'view', path: `/memories/s${i}.md` })));
    const search = await callTool(client, 'search', { query: 'credentials', limit: 100 });
    writeFileSync(join(root, 'MEMORY.md'), `# Memory\n\n${SECRETS_24[8].line}\n`);
    const index = await client.readResource({ uri: 'memctx://memory/MEMORY.md' });
    const seen = [JSON.stringify(index.contents), pack.text, JSON.stringify(pack.structured), ...views.map((v) => v.text), search.text, JSON.stringify(search.structured)].join('\n');
    SECRETS_24.forEach((_, i) => expect(pack.text).toContain(`s${i}.md`));
    expect(SECRETS_24.filter((s) => seen.includes(s.value)).map((s) => s.shape)).toEqual([]);
  }, 60_000);
});

describe('every tool: schemas derived from src/schemas/, structured content that validates, truthful annotations (issue 21 item 4)', () => {
  it('lists each tool with its schemas; each answer validates against its outputSchema', async () => {
    const TOOLS = await (await import('../../src/mcp/server.js')).loadTools();
    const v = await import('valibot');
    const { dir, client } = await open();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['memory', 'search', 'pack', 'status', 'flush', 'lint']);
    // Only status writes nothing at all; search, pack and lint write memctx's caches.
    expect(Object.fromEntries(tools.map((t) => [t.name, t.annotations?.readOnlyHint]))).toEqual({ memory: false, search: false, pack: false, status: true, flush: false, lint: false });
    expect(tools.find((t) => t.name === 'pack')?.inputSchema).toMatchObject({ type: 'object', additionalProperties: false, properties: { profile: { enum: expect.arrayContaining(['rehydrate']) } } });
    writeFileSync(join(dir, 'session.jsonl'), readFileSync(join(REPO, 'fixtures/transcripts/claude-session.jsonl')));
    const calls: Record<string, Record<string, unknown>> = { search: { query: 'tokens' }, pack: { task: 'tokens' }, status: { transcript: 'session.jsonl' }, flush: { goal: 'check schemas', progress: ['listed the tools'], decisions: ['none'], changed_files: ['none'], blockers: ['none'], next_steps: ['none'], dry_run: true }, lint: {} };
    for (const [name, args] of Object.entries(calls)) {
      const answer = await callTool(client, name, args);
      expect([name, answer.isError]).toEqual([name, false]);
      const output = TOOLS.find((t) => t.name === name)!.output!;
      expect([name, v.safeParse(output, answer.structured).success]).toEqual([name, true]);
    }
  });
});
