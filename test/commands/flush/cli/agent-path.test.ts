// The agent-written path (issue 32, item 4): the ask states the 50-line rule; pasted blocks, secrets
// and next steps already done are refused with nothing written; outside paths are marked; the Stop
// hook measures against the window the status line recorded; SessionEnd revises the summary.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { tempDir, stateOf } from '../../../helpers/cli.js';
import { runCli } from '../../../helpers/run.js';
import { SIX, initProject, sessionIn, sessionsIn } from '../../../helpers/agent-project.js';

let project: string;
let mem: string;

beforeEach(async () => {
  ({ project, mem } = await initProject('memctx-agent-path-'));
});

const sessions = () => sessionsIn(mem);
const session = (name: string) => sessionIn(mem, name);
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
    const { askText } = await import('../../../../src/commands/checkpoint/ask.js');
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

/** Claude Code transcript lines for session sess-a in the project. */
function claudeLines(lines: Array<{ role: 'user' | 'assistant'; content: unknown }>, from = 0): string {
  return lines
    .map((line, i) =>
      JSON.stringify({
        type: line.role,
        uuid: `u-${from + i}`,
        sessionId: 'sess-a',
        cwd: project,
        isSidechain: false,
        message: line.role === 'assistant' ? { id: `msg_${from + i}`, role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: line.content, usage: { input_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 1000, output_tokens: 5 } } : { role: 'user', content: line.content },
      }),
    )
    .join('\n')
    .concat('\n');
}

const flushCall = { type: 'tool_use', id: 'toolu_flush', name: 'mcp__memctx__flush', input: { goal: 'Add rate limiting to the API' } };
const todo = (id: string, todos: Array<[string, string]>) => ({ role: 'assistant' as const, content: [{ type: 'tool_use', id, name: 'TodoWrite', input: { todos: todos.map(([content, status]) => ({ content, status, activeForm: content })) } }] });
const result = (id: string, content = 'ok') => ({ role: 'user' as const, content: [{ type: 'tool_result', tool_use_id: id, content }] });

describe('SessionEnd revises an agent summary', () => {
  const hook = (event = 'SessionEnd') => JSON.stringify({ session_id: 'sess-a', transcript_path: join(project, 'session.jsonl'), cwd: project, hook_event_name: event, reason: 'other' });
  const before = [
    { role: 'user' as const, content: 'Add rate limiting to the API' },
    todo('toolu_t1', [['Token bucket middleware', 'completed'], ['Tune the bucket size on staging', 'pending']]),
    result('toolu_t1'),
    { role: 'assistant' as const, content: [flushCall] },
    result('toolu_flush', 'saved'),
  ];

  it('a next step finished after it moves to Progress, an open item joins Next Steps, each marked; three resumes revise it once', async () => {
    expect((await agentFlush(SIX)).code).toBe(0);
    const [name] = sessions();
    const segments = [
      [todo('toolu_t2', [['Tune the bucket size on staging', 'completed'], ['Document the limits in docs/limits.md', 'pending']]), result('toolu_t2'), { role: 'assistant' as const, content: [{ type: 'text', text: 'Bucket size tuned to 50 per second on staging.' }] }],
      [{ role: 'user' as const, content: 'Continue' }, { role: 'assistant' as const, content: [{ type: 'tool_use', id: 'toolu_w', name: 'Write', input: { file_path: join(project, 'docs/limits.md'), content: 'x' } }] }, result('toolu_w'), { role: 'assistant' as const, content: [{ type: 'text', text: 'Wrote docs/limits.md.' }] }],
      [{ role: 'user' as const, content: 'Can we submit a PR?' }],
    ];
    let lines = claudeLines(before);
    let at = before.length;
    const seen: unknown[] = [];
    for (const segment of segments) {
      lines += claudeLines(segment, at);
      at += segment.length;
      writeFileSync(join(project, 'session.jsonl'), lines);
      expect((await runCli(['flush', '--hook'], { cwd: project, input: hook() })).code).toBe(0);
      expect(sessions()).toEqual([name]);
      seen.push(session(name).fields);
    }
    const agent = { goal: ['Add rate limiting to the API'], decisions: ['Token bucket, not a fixed window: bursts stay fair'], blockers: ['none'] };
    expect(seen[0]).toEqual({
      ...agent,
      progress: ['Token bucket middleware in src/limit.js', 'Tune the bucket size on staging (done after the summary)', 'After the summary: Bucket size tuned to 50 per second on staging.'],
      changedFiles: ['src/limit.js'],
      nextSteps: ['Document the limits in docs/limits.md (open after the summary)'],
    });
    // the third end: each added item once, the unanswered request open
    expect(seen[2]).toEqual({
      ...agent,
      progress: ['Token bucket middleware in src/limit.js', 'Tune the bucket size on staging (done after the summary)', 'After the summary: Wrote docs/limits.md.'],
      changedFiles: ['src/limit.js', 'docs/limits.md (changed after the summary)'],
      nextSteps: ["Answer the user's request: Can we submit a PR? (open after the summary)", 'Document the limits in docs/limits.md (open after the summary)'],
    });
    const { data } = session(name);
    expect(data).toMatchObject({ written_by: 'agent', revised: 'by memctx from the transcript: items marked "after the summary"; the rest as the agent wrote it' });
  });
});

describe('saysDone: a next step is done only when a progress line says all of it, not negated', async () => {
  const { saysDone } = await import('../../../../src/kernel/summary/agent-summary.js');
  it.each([
    ['Commit the limiter and push', 'Committed the limiter and pushed it to origin', true],
    ['Deploy to staging', 'Deployed to staging', true],
    ['Deploy to staging', 'Did not deploy to staging yet', false],
    ['Deploy to staging', 'Staging deploy still failing', false],
    ['Add rate limiting to the admin API', 'Added rate limiting to the API', false],
    ['Ship it', 'Shipped it', false],
  ])('%s / %s → %s', (open, done, expected) => {
    expect(saysDone(open, done)).toBe(expected);
  });
});
