import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../helpers/cli.js';
import { callTool, HOST_SECRET, hostProject, inProcessServer } from '../../helpers/mcp.js';

describe('memctx mcp', () => {
  const server = inProcessServer();

  it('status answers with structured content', async () => {
    const { client, dir } = server;
    const status = await callTool(client, 'status', { transcript: join(dir, 'missing.jsonl') });
    expect(status.isError).toBe(true);
    expect(status.text).toContain('missing.jsonl');
    writeFileSync(join(dir, 'session.jsonl'), readFileSync(join(REPO, 'fixtures/transcripts/claude-session.jsonl')));
    const recorded = await callTool(client, 'status', { transcript: 'session.jsonl' });
    expect(recorded.isError).toBe(false);
    expect(recorded.structured).toMatchObject({ percent: expect.any(Number), window: expect.any(Number), level: expect.stringMatching(/^(green|yellow|orange|red)$/) });
  });
});

describe('memctx mcp: reads nothing on the host outside the project', () => {
  const SECRET = HOST_SECRET;
  const server = inProcessServer(hostProject);

  it('status refuses transcripts outside the project, hidden files and symlinks out, echoing nothing of them', async () => {
    const { client, dir, outside } = server;
    for (const transcript of [join(outside, 'shadow'), join(outside, 'leak.jsonl'), '../../.env', '.env', join(dir, '.env'), 'logs/link.jsonl', '/etc/passwd', 'x.jsonl\0']) {
      const answer = await callTool(client, 'status', { transcript });
      expect(answer.isError, transcript).toBe(true);
      expect(answer.text).toContain("outside this project's transcripts");
      expect(answer.text).not.toContain('hunter2');
      expect(answer.text).not.toContain('root:');
      expect(answer.structured).toBeUndefined();
    }
  });

  it("status reads a session from Claude Code's project folder for this project", async () => {
    const { client, dir } = server;
    const { claudeProjectDir } = await import('../../../src/kernel/store/find.js');
    const folder = claudeProjectDir(dir, dir, {});
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'abc.jsonl'), readFileSync(join(REPO, 'fixtures/transcripts/claude-session.jsonl')));
    const answer = await callTool(client, 'status', { transcript: join(folder, 'abc.jsonl') });
    expect(answer.isError).toBe(false);
    expect(answer.structured).toMatchObject({ window: expect.any(Number) });
    writeFileSync(join(folder, 'notes.txt'), SECRET);
    expect((await callTool(client, 'status', { transcript: join(folder, 'notes.txt') })).isError).toBe(true);
  });
});
