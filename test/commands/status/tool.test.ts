import { cpSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { REPO, tempDir } from '../../helpers/cli.js';
import { callTool, connectInProcess, HOST_SECRET, hostProject, inProcessServer } from '../../helpers/mcp.js';
import { runMemctx } from '../../helpers/run.js';
import { StatusOutput } from '../../../src/kernel/capacity/schema.js';

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

describe('the status tool with startup: the SessionStart bundle, as `status --startup` measures it', () => {
  const NOW = new Date('2026-11-28T12:00:00Z');
  it('answers what the CLI prints as JSON, and refuses what the CLI refuses', async () => {
    const dir = realpathSync(tempDir('memctx-mcp-startup-'));
    cpSync(join(REPO, 'fixtures/seed-memory'), join(dir, '.memory'), { recursive: true });
    const client = await connectInProcess(join(dir, '.memory'), dir, () => NOW);
    try {
      const answer = await callTool(client, 'status', { startup: true });
      expect(answer.isError).toBe(false);
      const cli = await runMemctx(['--json', 'status', '--startup'], { cwd: dir, env: { HOME: dir }, now: NOW });
      expect(answer.structured).toEqual(JSON.parse(cli.stdout));
      expect(answer.text).toBe(`SessionStart bundle: ${cli.stdout.match(/"tokens": (\d+)/)![1]} of 2000 tokens, ${cli.stdout.match(/"chars": (\d+)/)![1]} of 10000 characters. Within the budget and the hook-output limit: the whole bundle reaches the model.`);
      expect(v.safeParse(StatusOutput, answer.structured).success).toBe(true);
      const at = await callTool(client, 'status', { startup: true, budget: '1k' });
      expect((at.structured as { budget: number }).budget).toBe(1000);
      for (const [args, message] of [
        [{ startup: true, budget: 'abc' }, 'budget must be a positive number of tokens, got "abc" (e.g. budget 25000, budget 25k or budget 1m)'],
        [{ startup: true, budget: 0 }, 'budget must be a positive number of tokens, got "0" (e.g. budget 25000, budget 25k or budget 1m)'],
        [{ budget: 2000 }, 'budget applies only with startup (add startup to measure the SessionStart bundle at that budget)'],
        [{ startup: true, transcript: 'x.jsonl' }, 'transcript does not apply with startup (startup measures the SessionStart bundle, not a transcript: leave out transcript, or leave out startup)'],
        [{ startup: 'yes' }, 'startup must be true or false, got "yes"'],
      ] as const) {
        const refused = await callTool(client, 'status', args);
        expect([refused.isError, refused.text.split('\n')[0]]).toEqual([true, message]);
      }
    } finally {
      await client.close();
    }
  });
});
