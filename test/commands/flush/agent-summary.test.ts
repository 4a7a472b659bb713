// The agent's own session summary: the schema it must meet (six fields, ≤ 650 tokens), one file per
// session, and SessionEnd/PreCompact keeping it and completing it with what happened after it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { stateOf } from '../../helpers/cli.js';
import { runCli } from '../../helpers/run.js';
import { SIX, initProject, sessionIn, sessionsIn } from '../../helpers/agent-project.js';

let project: string;
let mem: string;

beforeEach(async () => {
  ({ project, mem } = await initProject('memctx-agent-summary-'));
});

const sessions = () => sessionsIn(mem);
const session = (name: string) => sessionIn(mem, name);

/** A Claude Code transcript: lines in order, each `{ type, message }`, with a session id and cwd. */
function claudeLines(lines: Array<{ role: 'user' | 'assistant'; content: unknown; usage?: object }>): string {
  return lines
    .map((line, i) =>
      JSON.stringify({
        type: line.role,
        uuid: `u-${i}`,
        sessionId: 'sess-a',
        cwd: project,
        isSidechain: false,
        message: line.role === 'assistant' ? { id: `msg_${i}`, role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: line.content, usage: line.usage ?? { input_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 1000, output_tokens: 5 } } : { role: 'user', content: line.content },
      }),
    )
    .join('\n')
    .concat('\n');
}

const flushCall = { type: 'tool_use', id: 'toolu_flush', name: 'mcp__memctx__flush', input: { goal: 'Add rate limiting to the API' } };

describe('flush --agent-summary: the schema', () => {
  it('refuses a summary missing fields (exit 2), naming them; nothing is written', async () => {
    const r = await runCli(['flush', '--agent-summary', '--goal', 'Add rate limiting', '--progress', 'middleware written'], { cwd: project });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the session summary is missing decisions, changed_files, blockers, next_steps: nothing was written; every field must be given (write "none" for one with nothing in it)');
    expect(r.stderr).toContain('Each decision says what was decided and why.');
    expect(sessions()).toEqual([]);
  });

  it('refuses a summary over 650 tokens (exit 1), naming the longest fields; nothing is written', async () => {
    const long = Array.from({ length: 40 }, (_, i) => `step ${i}: rewrote the limiter module and its tests for the burst case number ${i}`);
    const r = await runCli(['flush', '--agent-summary', ...SIX, ...long.flatMap((p) => ['--progress', p])], { cwd: project });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/the session summary is \d+ tokens, over the maximum of 650: nothing was written\. Shorten it by at least \d+ tokens \(aim for about 500\) and call it again; the longest fields: progress \d+ tokens, /);
    expect(sessions()).toEqual([]);
  });

  it('writes a complete summary marked written_by: agent; a second one for the session replaces it', async () => {
    const first = await runCli(['flush', '--agent-summary', '--session-id', 'sess-a', ...SIX], { cwd: project });
    expect(first.code).toBe(0);
    const [name] = sessions();
    expect(session(name).data).toMatchObject({ session_id: 'sess-a', written_by: 'agent' });
    expect(session(name).fields.blockers).toEqual(['none']);
    const second = await runCli(['flush', '--agent-summary', '--session-id', 'sess-a', ...SIX.slice(0, -1), 'Ship it'], { cwd: project });
    expect(second.code).toBe(0);
    expect(second.stderr + second.stdout).toContain(`updated sessions/${name}`);
    expect(sessions()).toEqual([name]);
    expect(session(name).fields.nextSteps).toEqual(['Ship it']);
  });
});

describe('SessionEnd after an agent summary: kept and completed', () => {
  const hook = (event = 'SessionEnd') => JSON.stringify({ session_id: 'sess-a', transcript_path: join(project, 'session.jsonl'), cwd: project, hook_event_name: event, reason: 'other' });

  it('keeps the agent summary and adds only the files changed after it and the last state line: one file', async () => {
    expect((await runCli(['flush', '--agent-summary', '--session-id', 'sess-a', ...SIX], { cwd: project })).code).toBe(0);
    writeFileSync(
      join(project, 'session.jsonl'),
      claudeLines([
        { role: 'user', content: 'Add rate limiting to the API' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Write', input: { file_path: join(project, 'src/limit.js'), content: 'x' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }] },
        { role: 'assistant', content: [flushCall] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_flush', content: 'saved' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_2', name: 'Write', input: { file_path: join(project, 'docs/limits.md'), content: 'x' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: 'ok' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Documented the limits in docs/limits.md. All done.' }] },
      ]),
    );
    const r = await runCli(['flush', '--hook'], { cwd: project, input: hook() });
    expect(r.code).toBe(0);
    const [name] = sessions();
    expect(sessions()).toEqual([name]);
    const { data, fields } = session(name);
    expect(data).toMatchObject({ session_id: 'sess-a', written_by: 'agent', hook_event: 'SessionEnd', revised: 'by memctx from the transcript: items marked "after the summary"; the rest as the agent wrote it' });
    expect(fields.goal).toEqual(['Add rate limiting to the API']);
    expect(fields.decisions).toEqual(['Token bucket, not a fixed window: bursts stay fair']);
    expect(fields.changedFiles).toEqual(['src/limit.js', 'docs/limits.md (changed after the summary)']);
    expect(fields.progress).toEqual(['Token bucket middleware in src/limit.js', 'After the summary: Documented the limits in docs/limits.md.']);
    // the edits were never committed: that is open at the end (issue 32)
    expect(fields.nextSteps).toEqual(['Tune the bucket size on staging', 'Commit the finished work: the session made no commit, so the changes are not committed yet. (open after the summary)']);
    const log = readFileSync(join(stateOf(mem), 'flush.log'), 'utf8');
    expect(log).toContain(`SessionEnd(other) session=sess-a updated sessions/${name}`);
    expect(log).toContain(`kept the agent's summary sessions/${name}; revised with 1 file(s) changed after it, 1 open item(s) found after it, the last state line`);
  });

  it('with nothing done after the summary, every field stays as the agent wrote it', async () => {
    expect((await runCli(['flush', '--agent-summary', '--session-id', 'sess-a', ...SIX], { cwd: project })).code).toBe(0);
    const [name] = sessions();
    const before = session(name).fields;
    writeFileSync(
      join(project, 'session.jsonl'),
      claudeLines([
        { role: 'user', content: 'Add rate limiting to the API' },
        { role: 'assistant', content: [flushCall] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_flush', content: 'saved' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Saved the summary.' }] },
      ]),
    );
    for (const event of ['PreCompact', 'SessionEnd']) expect((await runCli(['flush', '--hook'], { cwd: project, input: hook(event) })).code).toBe(0);
    expect(sessions()).toEqual([name]);
    expect(session(name).fields).toEqual(before);
    expect(readFileSync(join(stateOf(mem), 'flush.log'), 'utf8')).toContain('nothing happened after it');
  });

  it('reads the transcript from its end: a summary call far back, a mention of memctx flush after it', async () => {
    expect((await runCli(['flush', '--agent-summary', '--session-id', 'sess-a', ...SIX], { cwd: project })).code).toBe(0);
    const filler = Array.from({ length: 300 }, (_, i) => ({ role: 'user' as const, content: `note ${i} ${'words '.repeat(200)}` }));
    writeFileSync(
      join(project, 'session.jsonl'),
      claudeLines([
        { role: 'user', content: 'Add rate limiting to the API' },
        { role: 'assistant', content: [flushCall] },
        ...filler,
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_2', name: 'Write', input: { file_path: join(project, 'docs/limits.md'), content: 'x' } }] },
        ...filler,
        { role: 'assistant', content: [{ type: 'text', text: 'Ran memctx flush --hook by hand to check. Done.' }] },
      ]),
    );
    expect(readFileSync(join(project, 'session.jsonl')).length).toBeGreaterThan(500_000);
    expect((await runCli(['flush', '--hook'], { cwd: project, input: hook() })).code).toBe(0);
    const [name] = sessions();
    expect(session(name).fields.changedFiles).toEqual(['src/limit.js', 'docs/limits.md (changed after the summary)']);
  });

  it('a hook file written first is replaced by the agent summary (one file per session)', async () => {
    writeFileSync(join(project, 'session.jsonl'), claudeLines([{ role: 'user', content: 'Add rate limiting to the API' }, { role: 'assistant', content: [{ type: 'text', text: 'TODO: write the middleware' }] }]));
    expect((await runCli(['flush', '--hook'], { cwd: project, input: hook('PreCompact') })).code).toBe(0);
    const [name] = sessions();
    expect((await runCli(['flush', '--agent-summary', '--session-id', 'sess-a', ...SIX], { cwd: project })).code).toBe(0);
    expect(sessions()).toEqual([name]);
    expect(session(name).data).toMatchObject({ written_by: 'agent' });
  });
});
