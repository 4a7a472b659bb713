import { existsSync, mkdirSync, readFileSync, readdirSync, watch, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { capText, headlessPrompt, startSummaryJob } from '../../../src/commands/flush/summary-job.js';
import { readTranscript } from '../../../src/kernel/transcript/index.js';
import { memctx, removeDir, stateOf, tempDir } from '../../helpers/cli.js';

/** One token per word, for exact arithmetic. */
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

describe('capText', () => {
  it('returns a text within the cap as it is', () => {
    expect(capText('a b c', 10, words)).toEqual({ text: 'a b c', total: 3, left: 0 });
  });
  it('keeps the start and the end, whole lines, within the cap, and says what was left out', () => {
    const text = Array.from({ length: 1000 }, (_, i) => `line${i} w w w`).join('\n');
    const capped = capText(text, 400, words);
    expect(words(capped.text)).toBeLessThanOrEqual(400);
    expect(capped.total).toBe(4000);
    expect(capped.text.startsWith('line0 w w w\n')).toBe(true);
    expect(capped.text.endsWith('\nline999 w w w')).toBe(true);
    expect(capped.text).toContain('[… memctx left out the middle of the session (it was 4000 tokens) …]');
    // a quarter of the room for the start, the rest for the end
    const [head, tail] = capped.text.split('[… memctx');
    expect(words(head)).toBeLessThan(words(tail));
  });
});

describe('headlessPrompt', () => {
  const line = (o: object) => JSON.stringify({ sessionId: 's', cwd: '/w', ...o });
  const long = [line({ type: 'user', message: { role: 'user', content: 'Port the parser to Rust' } })];
  for (let i = 0; i < 400; i++) long.push(line({ type: 'assistant', message: { id: `m${i}`, role: 'assistant', content: [{ type: 'text', text: `Step ${i}: ${'rewrote part of the parser and ran its tests again '.repeat(3)}` }] } }));
  long.push(line({ type: 'assistant', message: { id: 'end', role: 'assistant', content: [{ type: 'text', text: 'All tests pass; committed as abc123.' }] } }));
  const transcript = readTranscript(long.join('\n'));

  it('asks for the six fields with the rules of the agent path, gives the draft, and caps the transcript (its start and its end kept)', () => {
    const { prompt, transcriptTokens } = headlessPrompt(transcript, '## Goal\n\nPort the parser\n', { target: 500, max: 650, cap: 2000 }, words);
    expect(transcriptTokens).toBeLessThanOrEqual(2000);
    expect(prompt).toContain('"next_steps": what is open at the end, including a request left unanswered');
    expect(prompt).toContain('Aim for about 500 tokens, at most 650');
    expect(prompt).toContain("memctx's draft, read from the transcript and git without a model (correct it where the transcript says otherwise):\n## Goal\n\nPort the parser\n");
    expect(prompt).toContain('Port the parser to Rust');
    expect(prompt).toContain('All tests pass; committed as abc123.');
    expect(prompt).toContain('memctx left out the middle of the session');
  });
});

describe('startSummaryJob', () => {
  let root: string | undefined;
  afterEach(() => root && removeDir(root));

  it('saves the job in the state folder, then starts the worker with it, the guard set', async () => {
    root = tempDir('memctx-start-job-');
    mkdirSync(join(root, '.memory'));
    writeFileSync(join(root, '.memory/MEMORY.md'), '# Memory\n');
    const started: Array<{ path: string; env: Record<string, string | undefined> }> = [];
    const job = { agent: 'codex' as const, root: join(root, '.memory'), cwd: root, transcript: '/t.jsonl', sessionId: 'a/b c', path: 'sessions/x.md', sha256: 'f'.repeat(64), target: 500, max: 650, encoding: 'o200k_base', timeoutSeconds: 60, label: 'SessionEnd', started: new Date().toISOString() };
    const path = await startSummaryJob(job, { env: { PATH: '/bin' }, startWorker: (p, o) => started.push({ path: p, env: o.env }) });
    expect(path).toBe(join(stateOf(join(root, '.memory')), 'summary-job-a_b_c.json'));
    expect(JSON.parse(readFileSync(path!, 'utf8'))).toEqual(job);
    expect(started).toEqual([{ path, env: { PATH: '/bin' } }]);
  });
});

/** Resolves once the file is gone (a barrier on the folder's change events). */
function gone(path: string): Promise<void> {
  return new Promise((resolve) => {
    const watcher = watch(dirname(path), () => {
      if (!existsSync(path)) {
        watcher.close();
        resolve();
      }
    });
    if (!existsSync(path)) {
      watcher.close();
      resolve();
    }
  });
}

// The built bin, as the SessionEnd hook runs it: the hook returns at once while a stand-in `claude`
// takes its time; the detached worker then replaces the offline summary.
describe('flush --hook --summarize-with claude (built bin)', () => {
  let project: string | undefined;
  afterEach(() => project && removeDir(project));

  it('returns before the agent answers; the agent\'s summary replaces the offline one afterwards', async () => {
    project = tempDir('memctx-hook-bg-');
    expect(memctx(['init'], { cwd: project }).code).toBe(0);
    const line = (o: object) => JSON.stringify({ sessionId: 'bg-1', cwd: project, ...o });
    writeFileSync(join(project, 't.jsonl'), `${line({ type: 'user', message: { role: 'user', content: 'Add a retry loop' } })}\n`);
    const bin = join(project, 'bin');
    mkdirSync(bin);
    const answer = { goal: 'Add a retry loop', progress: ['Retry loop written'], decisions: ['Three retries, because the API is flaky'], changed_files: ['src/retry.ts'], blockers: ['none'], next_steps: ['none'] };
    const result = JSON.stringify({ type: 'result', is_error: false, result: JSON.stringify(answer), usage: { input_tokens: 900, output_tokens: 90 } });
    // the stand-in answers only once the test lets it (the file go): the hook must have returned before
    const go = join(project, 'go');
    writeFileSync(join(bin, 'claude'), `#!/bin/sh\ncat >/dev/null\nwhile [ ! -e '${go}' ]; do sleep 0.05; done\nprintf '%s' '${result.replace(/'/g, `'\\''`)}'\n`, { mode: 0o755 });
    const input = JSON.stringify({ session_id: 'bg-1', transcript_path: join(project, 't.jsonl'), cwd: project, hook_event_name: 'SessionEnd', reason: 'exit' });
    const hook = memctx(['flush', '--hook', '--summarize-with', 'claude'], { cwd: project, input, env: { PATH: `${bin}:${process.env.PATH}` } });
    expect(hook.code).toBe(0);
    const sessions = join(project, '.memory/sessions');
    const [name] = readdirSync(sessions);
    expect(readFileSync(join(sessions, name), 'utf8')).not.toContain('written_by');
    writeFileSync(go, '');
    const state = stateOf(join(project, '.memory'));
    const log = join(state, 'flush.log');
    // the worker removes its job file last of all: wait for that
    await gone(join(state, 'summary-job-bg-1.json'));
    expect(readFileSync(log, 'utf8')).toContain(`summary by claude -p: replaced the offline summary sessions/${name}`);
    expect(readdirSync(sessions)).toEqual([name]);
    expect(readFileSync(join(sessions, name), 'utf8')).toContain('\nwritten_by: agent\nwritten_with: claude -p\n');
  }, 10_000);
});
