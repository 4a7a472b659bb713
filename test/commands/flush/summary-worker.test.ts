import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { flushHook } from '../../../src/commands/flush/flush.js';
import { resolveFlush } from '../../../src/commands/flush/schema.js';
import { runSummaryJob } from '../../../src/commands/flush/summary-worker.js';
import { headlessCommand } from '../../../src/commands/flush/headless.js';
import type { RunProgram } from '../../../src/commands/flush/summarize.js';
import { readSummaryJob, type SummaryJob } from '../../../src/kernel/state/summary-jobs.js';
import { removeDir, stateOf, tempDir } from '../../helpers/cli.js';
import { runCli } from '../../helpers/run.js';

let project: string;
const mem = () => join(project, '.memory');
const log = () => readFileSync(join(stateOf(mem()), 'flush.log'), 'utf8').trim().split('\n');
const sessionFiles = () => readdirSync(join(mem(), 'sessions'));
const sessionText = () => readFileSync(join(mem(), 'sessions', sessionFiles()[0]), 'utf8');

function transcript(dir: string): string {
  const line = (o: object) => JSON.stringify({ sessionId: 'sess-1', cwd: dir, ...o });
  return [
    line({ type: 'user', message: { role: 'user', content: 'Add rate limiting to the API' } }),
    line({ type: 'assistant', message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Write', input: { file_path: join(dir, 'src', 'limit.ts'), content: 'x' } }] } }),
    line({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] } }),
    line({ type: 'assistant', message: { id: 'm2', role: 'assistant', content: [{ type: 'text', text: 'The limiter is in place.' }] } }),
  ].join('\n');
}

const ANSWER = {
  goal: 'Add rate limiting to the API',
  progress: ['Token bucket limiter in src/limit.ts; tests pass'],
  decisions: ['Token bucket, not a fixed window: bursts stay fair'],
  changed_files: ['src/limit.ts', '/etc/hosts'],
  blockers: ['none'],
  next_steps: ['Tune the bucket size on staging'],
};

/** The SessionEnd hook with --summarize-with claude, in process: the job it saved (its worker not started). */
async function hookJob(env: Record<string, string> = {}, event = 'SessionEnd'): Promise<{ jobs: string[]; result: Awaited<ReturnType<typeof flushHook>> }> {
  const jobs: string[] = [];
  const input = JSON.stringify({ session_id: 'sess-1', transcript_path: join(project, 'session.jsonl'), cwd: project, hook_event_name: event, reason: 'exit' });
  const result = await flushHook(resolveFlush({ hook: true, summarize_with: 'claude' }), {
    cwd: project,
    env: { PATH: process.env.PATH, ...env },
    home: project,
    now: () => new Date(),
    readStdin: async () => input,
    startSummaryWorker: (path) => jobs.push(path),
  });
  return { jobs, result };
}

async function savedJob(): Promise<SummaryJob> {
  const { jobs } = await hookJob();
  expect(jobs).toHaveLength(1);
  return readSummaryJob(jobs[0])!;
}

/** A headless claude that prints `result` as its JSON result; records what it was given. */
function answering(result: string, calls: Array<{ file: string; args: string[]; input: string; env: Record<string, string | undefined> }> = []): RunProgram {
  return async (file, args, input, options) => {
    calls.push({ file, args, input, env: options.env });
    return { code: 0, stdout: JSON.stringify({ type: 'result', is_error: false, result, usage: { input_tokens: 3000, output_tokens: 150 } }), stderr: '', timedOut: false };
  };
}

const deps = (run?: RunProgram, env: Record<string, string | undefined> = { PATH: process.env.PATH }) => ({ env, home: project, now: () => new Date(), run });

beforeEach(async () => {
  project = tempDir('memctx-summary-job-');
  expect((await runCli(['init'], { cwd: project })).code).toBe(0);
  writeFileSync(join(project, 'session.jsonl'), `${transcript(project)}\n`);
});
afterEach(() => removeDir(project));

describe('the SessionEnd hook with --summarize-with', () => {
  it('writes the offline summary, then saves the job in the state folder and starts its worker once', async () => {
    const { jobs, result } = await hookJob();
    expect(result.outcome?.written).toBe(true);
    expect(jobs).toEqual([join(stateOf(mem()), 'summary-job-sess-1.json')]);
    const job = readSummaryJob(jobs[0])!;
    expect(job).toMatchObject({ agent: 'claude', root: mem(), cwd: project, transcript: join(project, 'session.jsonl'), sessionId: 'sess-1', path: `sessions/${sessionFiles()[0]}`, target: 500, max: 650, timeoutSeconds: 60 });
    expect(sessionText()).not.toContain('written_by');
    expect(log()[0]).toMatch(/SessionEnd\(exit\) session=sess-1 wrote sessions\/.+; asked claude for the summary in the background \(at most 60 s\); warning: written as "none recorded"/);
  });
  it('starts no second job while one runs for the session, none at PreCompact', async () => {
    expect((await hookJob()).jobs).toHaveLength(1);
    expect((await hookJob()).jobs).toEqual([]);
    expect(log()[1]).toContain('a background summary by claude for this session is still running; none started');
    expect((await hookJob({}, 'PreCompact')).jobs).toEqual([]);
  });
  it('asks nothing when the agent wrote its own summary (it is kept)', async () => {
    const own = await runCli(['flush', '--agent-summary', '--session-id', 'sess-1', '--goal', 'g', '--progress', 'p', '--decision', 'd because e', '--changed', 'none', '--blocker', 'none', '--next', 'none'], { cwd: project });
    expect(own.code).toBe(0);
    expect((await hookJob()).jobs).toEqual([]);
    expect(log().at(-1)).toContain("kept the agent's summary");
  });
  it('a worker that cannot start leaves the offline summary written, with a note on its log line', async () => {
    const input = JSON.stringify({ session_id: 'sess-1', transcript_path: join(project, 'session.jsonl'), cwd: project, hook_event_name: 'SessionEnd', reason: 'exit' });
    const result = await flushHook(resolveFlush({ hook: true, summarize_with: 'claude' }), {
      cwd: project,
      env: {},
      home: project,
      now: () => new Date(),
      readStdin: async () => input,
      startSummaryWorker: () => {
        throw new Error('spawn EAGAIN');
      },
    });
    expect(result.outcome?.written).toBe(true);
    expect(result.error).toBeUndefined();
    expect(log()[0]).toContain('; claude was not asked: the background job could not start (spawn EAGAIN)');
  });
  it('inside a background summary (the guard set) records nothing and starts nothing: no recursion', async () => {
    const { jobs, result } = await hookJob({ MEMCTX_SUMMARY_JOB: '1' });
    expect(jobs).toEqual([]);
    expect(result.skipped).toBe("inside memctx's background summary (MEMCTX_SUMMARY_JOB is set), nothing to record");
    expect(existsSync(join(mem(), 'sessions'))).toBe(false);
  });
  it('with --hook, --summarize-with takes only claude or codex: another command is logged, never run', async () => {
    const r = await runCli(['flush', '--hook', '--summarize-with', 'touch pwned'], { cwd: project, input: '{}' });
    expect(r.code).toBe(0);
    expect(log()).toEqual([expect.stringMatching(/ hook error: with --hook, --summarize-with takes claude or codex \(the agent's headless mode, in the background\), not "touch pwned" \(a command of your own runs only without --hook\)$/)]);
    expect(existsSync(join(project, 'pwned'))).toBe(false);
  });
});

describe('the worker', () => {
  it("replaces the offline summary with an answer that passes the checks: the agent's, marked so, outside paths marked", async () => {
    const job = await savedJob();
    const calls: Parameters<typeof answering>[1] = [];
    const outcome = await runSummaryJob(job, deps(answering(JSON.stringify(ANSWER), calls)));
    expect(outcome).toMatchObject({ replaced: job.path });
    expect(sessionFiles()).toEqual([job.path.slice('sessions/'.length)]);
    const text = sessionText();
    expect(text).toContain('\nwritten_by: agent\nwritten_with: claude -p\n');
    expect(text).toContain('\nsession_id: sess-1\n');
    expect(text).toContain('## Changed Files\n\n- src/limit.ts\n- /etc/hosts (outside the working directory)\n');
    expect(text).toContain('## Next Steps\n\n- Tune the bucket size on staging\n');
    // what the agent was given: its own name on PATH, the headless arguments, the guard, a prompt with the rules, the draft and the transcript
    expect(calls).toHaveLength(1);
    expect(calls[0].file).toBe('claude');
    expect(calls[0].args).toEqual(headlessCommand('claude').args);
    expect(calls[0].env.MEMCTX_SUMMARY_JOB).toBe('1');
    expect(calls[0].input).toContain('No item over 5 lines: never paste a log, trace or diff (the 50-line rule)');
    expect(calls[0].input).toContain("memctx's draft, read from the transcript and git without a model");
    expect(calls[0].input).toContain('Add rate limiting to the API');
    expect(log().at(-1)).toMatch(new RegExp(`SessionEnd\\(exit\\) session=sess-1 summary by claude -p: replaced the offline summary ${job.path} \\(prompt \\d+ tokens; claude -p reported 3000 input and 150 output tokens\\)$`));
    expect(existsSync(join(stateOf(mem()), 'summary-job-sess-1.json'))).toBe(false);
  });

  const token = `ghp_${'A1b2C3d4E5f6G7h8I9j0'.repeat(2).slice(0, 36)}`;
  const refused: Array<[string, string, RegExp]> = [
    ['prose', 'Sure! The session added a rate limiter and all went well.', /its answer is not JSON or YAML|the document must be a mapping|its answer has none of the six fields/],
    ['a secret', JSON.stringify({ ...ANSWER, progress: [`Pushed with the token ${token}`] }), /its summary was refused: the session summary holds a possible secret in progress item 1 \(github token\): nothing was written/],
    ['too long', JSON.stringify({ ...ANSWER, progress: Array.from({ length: 60 }, (_, i) => `step ${i}: rewrote the limiter module and its tests for burst case ${i}`) }), /its summary was refused: the session summary is \d+ tokens, over the maximum of 650/],
    ['a 200-line item', JSON.stringify({ ...ANSWER, blockers: [Array.from({ length: 200 }, (_, i) => `log line ${i}`).join('\n')] }), /its summary was refused: blockers item 1 is 200 lines, over 5: nothing was written; never paste a log/],
    ['a missing field', JSON.stringify({ goal: 'x', progress: ['y'] }), /its answer lacks decisions, changedFiles, blockers, nextSteps/],
  ];
  for (const [name, answer, why] of refused) {
    it(`keeps the offline summary, byte for byte, and logs one line, for ${name}`, async () => {
      const job = await savedJob();
      const before = sessionText();
      const outcome = await runSummaryJob(job, deps(answering(answer)));
      expect(outcome).toMatchObject({ kept: expect.stringMatching(why) });
      expect(sessionText()).toBe(before);
      const last = log().at(-1)!;
      expect(last).toMatch(/ SessionEnd\(exit\) session=sess-1 error: summary by claude -p: .+; kept the offline summary sessions\/.+\.md$/);
      expect(last).not.toContain(token);
    });
  }

  it('keeps the offline summary on a non-zero exit', async () => {
    const job = await savedJob();
    const run: RunProgram = async () => ({ code: 1, stdout: '', stderr: 'Invalid API key\nmore', timedOut: false });
    expect(await runSummaryJob(job, deps(run))).toMatchObject({ kept: 'claude exited with code 1 (Invalid API key)' });
  });

  it('keeps the offline summary when claude is not on PATH', async () => {
    const job = await savedJob();
    const empty = join(project, 'empty-bin');
    mkdirSync(empty);
    const before = sessionText();
    expect(await runSummaryJob(job, deps(undefined, { PATH: empty }))).toMatchObject({ kept: 'claude was not found on PATH' });
    expect(sessionText()).toBe(before);
    expect(log().at(-1)).toContain('error: summary by claude -p: claude was not found on PATH; kept the offline summary');
  });

  it('stops an agent that does not answer in time (the process is killed) and keeps the offline summary', async () => {
    const job = { ...(await savedJob()), timeoutSeconds: 1 };
    const bin = join(project, 'bin');
    mkdirSync(bin);
    const pidFile = join(project, 'claude.pid');
    writeFileSync(join(bin, 'claude'), `#!/bin/sh\necho $$ > '${pidFile}'\nexec sleep 30\n`, { mode: 0o755 });
    expect(await runSummaryJob(job, deps(undefined, { PATH: `${bin}:${process.env.PATH}` }))).toMatchObject({ kept: 'claude did not answer within 1 s (stopped)' });
    const pid = Number(readFileSync(pidFile, 'utf8'));
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    expect(alive()).toBe(false);
  });

  it('leaves a session file that changed since the hook wrote it', async () => {
    const job = await savedJob();
    const path = join(mem(), job.path);
    writeFileSync(path, readFileSync(path, 'utf8').replace('## Goal', '## Goal\n\nEdited by hand.'));
    const before = sessionText();
    expect(await runSummaryJob(job, deps(answering(JSON.stringify(ANSWER))))).toMatchObject({ kept: `${job.path} changed since the hook wrote it; left as it is` });
    expect(sessionText()).toBe(before);
  });
});
