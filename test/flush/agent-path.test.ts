// The agent-written path (issue 32, item 4): the ask states the 50-line rule; pasted blocks, secrets
// and next steps already done are refused with nothing written; outside paths are marked; the Stop
// hook measures against the window the status line recorded; SessionEnd revises the summary.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { tempDir, stateOf } from '../helpers/cli.js';
import { runCli } from '../helpers/run.js';
import { parseMemoryText } from '../../src/store/parse.js';
import { builtInTemplate } from '../../src/flush/templates.js';
import { parseBody } from '../../src/flush/render.js';

let project: string;
let mem: string;

beforeEach(async () => {
  project = tempDir('memctx-agent-path-');
  mem = join(project, '.memory');
  expect((await runCli(['init'], { cwd: project })).code).toBe(0);
});

function sessions(): string[] {
  const dir = join(mem, 'sessions');
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

function session(name: string) {
  const parsed = parseMemoryText(name, readFileSync(join(mem, 'sessions', name), 'utf8'), { mtimeMs: 0, size: 0 });
  return { data: parsed.data, fields: parseBody(builtInTemplate('session'), parsed.body) };
}

const SIX = ['--goal', 'Add rate limiting to the API', '--progress', 'Token bucket middleware in src/limit.js', '--decision', 'Token bucket, not a fixed window: bursts stay fair', '--changed', 'src/limit.js', '--blocker', 'none', '--next', 'Tune the bucket size on staging'];
const agentFlush = (args: string[], env?: Record<string, string>) => runCli(['flush', '--agent-summary', '--session-id', 'sess-a', ...args], { cwd: project, env });

describe('flush --agent-summary refuses what breaks the rules; nothing is written', () => {
  it('an item of 60 lines (a pasted log): exit 1, the rule stated', async () => {
    const log = Array.from({ length: 60 }, (_, i) => (i === 41 ? 'Error: ECONNREFUSED 127.0.0.1:6379' : `  at step ${i}`)).join('\n');
    const r = await agentFlush([...SIX, '--blocker', log]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('blockers item 2 is 60 lines, over 5: nothing was written; never paste a log, trace or diff (the 50-line rule); write it as one item, "Error: … / Root cause: … / Fix: …"');
    expect(sessions()).toEqual([]);
    // the same failure as one item passes
    expect((await agentFlush([...SIX, '--blocker', 'Error: ECONNREFUSED on 6379 / Root cause: Redis not started in CI / Fix: add the redis service'])).code).toBe(0);
  });

  it('a GitHub token and an AWS key pair: exit 1, the fields named, the secrets never echoed', async () => {
    const token = `ghp_${'A1b2C3d4E5f6G7h8I9j0'.repeat(2).slice(0, 36)}`;
    const keyId = 'AKIAQWERTYUIOPASDFGH';
    const secretKey = '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';
    const r = await agentFlush([...SIX.slice(0, -2), '--next', `Set GITHUB_TOKEN=${token} in CI`, '--decision', `Use aws_access_key_id=${keyId} aws_secret_access_key=${secretKey}`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/the session summary holds a possible secret in decisions item 2 \([a-z ]+\).*, next_steps item 1 \(github token\): nothing was written; name the credential and where it is kept, never its value, and call it again \(rotate it if it was real\)/);
    for (const secret of [token, keyId, secretKey]) expect(r.stderr + r.stdout).not.toContain(secret);
    expect(sessions()).toEqual([]);
  });

  it('Next Steps that contradict Progress (a next step already done): exit 1, both items named', async () => {
    const r = await agentFlush([...SIX.slice(0, -2), '--progress', 'Committed the limiter and pushed it to origin', '--next', 'Commit the limiter and push']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'next_steps item 1 ("Commit the limiter and push") is done by progress item 2 ("Committed the limiter and pushed it to origin"): nothing was written; write each item once, where it is true now (finished work under progress, what remains under next_steps)',
    );
    expect(sessions()).toEqual([]);
  });

  it('paths outside the project are shown absolute and marked, after the project files', async () => {
    const home = tempDir('memctx-agent-home-');
    const r = await agentFlush([...SIX, '--changed', '/etc/hosts — added staging.local', '--changed', '~/.ssh/config', '--changed', 'README.md'], { HOME: home });
    expect(r.code).toBe(0);
    expect(session(sessions()[0]).fields.changedFiles).toEqual(['src/limit.js', 'README.md', '/etc/hosts (outside the working directory) — added staging.local', `${join(home, '.ssh/config')} (outside the working directory)`]);
  });
});

describe('the ask', () => {
  it('states the 50-line rule and the secrets rule', async () => {
    const { askText } = await import('../../src/flush/checkpoint.js');
    const text = askText({ percent: 85, used: 170_000, window: 200_000, threshold: 80, target: 500, max: 650 });
    expect(text).toContain('No item over 5 lines: never paste a log, trace or diff (the 50-line rule); write it as one item, "Error: … / Root cause: … / Fix: …". No secrets: name a credential, never its value.');
  });
});

/** One Claude Code assistant line with recorded usage of `used` tokens. */
function assistantAt(text: string, used: number, id: string): string {
  return `${JSON.stringify({ type: 'assistant', uuid: id, sessionId: 'sess-w', isSidechain: false, message: { id: `msg_${id}`, role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'text', text }], usage: { input_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: used - 10, output_tokens: 5 } } })}\n`;
}

describe("the session's real window", () => {
  const status = (size: number, session = 'sess-w') =>
    JSON.stringify({ session_id: session, cwd: project, transcript_path: join(project, 'w.jsonl'), model: { id: 'claude-sonnet-4-5-20250929', display_name: 'Sonnet 4.5' }, context_window: { context_window_size: size, used_percentage: 17 } });
  const windows = () => join(stateOf(mem), 'windows.json');

  it('the status line records it once per change; the Stop hook measures 170k of a 1M window as 17%', async () => {
    writeFileSync(join(project, 'w.jsonl'), `${JSON.stringify({ type: 'user', uuid: 'u0', sessionId: 'sess-w', message: { role: 'user', content: 'Go' } })}\n${assistantAt('Working.', 170_000, 'a1')}`);
    const stop = JSON.stringify({ session_id: 'sess-w', transcript_path: join(project, 'w.jsonl'), cwd: project, hook_event_name: 'Stop', stop_hook_active: false });
    // before the status line has run: the model id's window, 200k, says 85%
    const guessed = await runCli(['checkpoint', '--wait', '0'], { cwd: project, input: stop });
    expect(JSON.parse(guessed.stdout).reason).toContain('the context is 85% full (170,000 of 200,000 tokens)');
    const line = await runCli(['status', '--statusline'], { cwd: project, input: status(1_000_000) });
    expect(line.code).toBe(0);
    expect(JSON.parse(readFileSync(windows(), 'utf8')).sessions['sess-w'].window).toBe(1_000_000);
    const written = statSync(windows());
    // the same size again: not rewritten (the same file, the same change time)
    expect((await runCli(['status', '--statusline'], { cwd: project, input: status(1_000_000) })).code).toBe(0);
    expect(statSync(windows())).toMatchObject({ ino: written.ino, ctimeMs: written.ctimeMs });
    const real = await runCli(['checkpoint', '--wait', '0'], { cwd: project, input: stop });
    expect({ stdout: real.stdout, stderr: real.stderr }).toEqual({ stdout: '', stderr: 'memctx checkpoint: 17%: below 80%\n' });
  });

  it('a changed size is recorded; other sessions keep theirs; a corrupt file reads as none', async () => {
    await runCli(['status', '--statusline'], { cwd: project, input: status(200_000, 'sess-1') });
    await runCli(['status', '--statusline'], { cwd: project, input: status(1_000_000, 'sess-2') });
    await runCli(['status', '--statusline'], { cwd: project, input: status(1_000_000, 'sess-1') });
    const recorded = JSON.parse(readFileSync(windows(), 'utf8')).sessions;
    expect({ one: recorded['sess-1'].window, two: recorded['sess-2'].window }).toEqual({ one: 1_000_000, two: 1_000_000 });
    writeFileSync(windows(), '{ not json');
    expect((await runCli(['status', '--statusline'], { cwd: project, input: status(400_000, 'sess-1') })).code).toBe(0);
    expect(JSON.parse(readFileSync(windows(), 'utf8')).sessions).toEqual({ 'sess-1': { window: 400_000, at: expect.stringMatching(/Z$/) } });
  });
});
