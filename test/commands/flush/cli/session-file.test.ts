import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { tempDir, stateOf } from '../../../helpers/cli.js';
import { runCli } from '../../../helpers/run.js';

const jsonl = (lines: object[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';

let project: string;
const sessionFiles = () => readdirSync(join(project, '.memory', 'sessions')).sort();
const sessionText = (name: string) => readFileSync(join(project, '.memory', 'sessions', name), 'utf8');
const git = (...args: string[]) => execFileSync('git', args, { cwd: project, stdio: 'pipe', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });

function transcript(started: string): string {
  const line = (o: object, at: string) => ({ sessionId: 'sess-42', cwd: project, timestamp: at, ...o });
  return jsonl([
    line({ type: 'user', message: { role: 'user', content: 'Split the config module' } }, started),
    line({ type: 'assistant', message: { id: 'a1', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'git mv config.ts config/index.ts' } }], usage: { input_tokens: 5, output_tokens: 5 } } }, '2099-01-01T10:05:00Z'),
    line({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: '', is_error: false }] } }, '2099-01-01T10:05:01Z'),
    line({ type: 'assistant', message: { id: 'a2', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'Done: the config module is split and committed.' }], usage: { input_tokens: 5, output_tokens: 5 } } }, '2099-01-01T10:20:00Z'),
  ]);
}

async function hook(env: Record<string, string | undefined> = {}) {
  const input = JSON.stringify({ session_id: 'sess-42', transcript_path: join(project, 'session.jsonl'), cwd: project, hook_event_name: 'SessionEnd', reason: 'exit' });
  return runCli(['flush', '--hook'], { cwd: project, input, env });
}

beforeEach(async () => {
  project = tempDir();
  expect((await runCli(['init'], { cwd: project })).code).toBe(0);
});

describe('a session file knows its session', () => {
  it('records session_id, agent, model, start and end from the transcript', async () => {
    writeFileSync(join(project, 'session.jsonl'), transcript('2099-01-01T10:00:00Z'));
    expect((await hook()).code).toBe(0);
    const [name] = sessionFiles();
    expect(sessionText(name)).toMatch(/\nsession_id: sess-42\nagent: claude-code\nmodel: claude-sonnet-4-5\nstarted: 2099-01-01T10:00:00Z\nended: 2099-01-01T10:20:00Z\nhook_event: SessionEnd\n/);
  });
});

describe('flush --hook and git', () => {
  it('outside a git work tree: the transcript alone gives Changed Files', async () => {
    writeFileSync(join(project, 'session.jsonl'), transcript('2099-01-01T10:00:00Z'));
    // a PATH with no git at all: nothing is asked of it
    const r = await hook({ PATH: '/nonexistent' });
    expect(r.code).toBe(0);
    const text = sessionText(sessionFiles()[0]);
    expect(text).toContain('## Changed Files\n\n- config/index.ts (moved from config.ts)\n');
    expect(readFileSync(join(stateOf(join(project, '.memory')), 'flush.log'), 'utf8')).not.toContain('git:');
  });

  it("inside git: the files of the session's commits and the work tree, each under its final path", async () => {
    git('init', '-q');
    writeFileSync(join(project, 'old.ts'), 'x\n');
    git('add', 'old.ts');
    git('commit', '-qm', 'before the session', '--date', '2000-01-01T00:00:00Z');
    execFileSync('git', ['commit', '--amend', '-qm', 'before the session'], { cwd: project, env: { ...process.env, GIT_COMMITTER_DATE: '2000-01-01T00:00:00Z', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });
    mkdirSync(join(project, 'lib'));
    writeFileSync(join(project, 'lib', 'made.ts'), 'export const made = 1;\n');
    git('add', 'lib/made.ts');
    git('commit', '-qm', 'during the session');
    writeFileSync(join(project, 'draft.md'), 'draft\n');
    writeFileSync(join(project, 'session.jsonl'), transcript('2001-01-01T00:00:00Z'));
    expect((await hook()).code).toBe(0);
    const files = sessionText(sessionFiles()[0]).split('## Changed Files\n\n')[1].split('\n\n')[0];
    expect(files.split('\n').map((l) => l.replace(/^- /, '').split(' — ')[0])).toEqual(['config/index.ts (moved from config.ts)', 'lib/made.ts (new)', 'draft.md (new)', 'session.jsonl (new)']);
  });

  it('a git that hangs is killed after its time limit: the hook still writes the summary and says why git is missing from it', async () => {
    git('init', '-q');
    // A commit made after the session's start, so that `git log` runs (a branch with no commit, or none since the start, needs no git log).
    writeFileSync(join(project, 'old.ts'), 'x\n');
    git('add', 'old.ts');
    git('commit', '-qm', 'during the session');
    const bin = join(project, 'fake-bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'git'), '#!/bin/sh\nexec sleep 30\n');
    chmodSync(join(bin, 'git'), 0o755);
    writeFileSync(join(project, 'session.jsonl'), transcript('2001-01-01T10:00:00Z'));
    // The fake git sleeps 30 s, as long as the test may run: the log's "no answer within" shows it was killed.
    const r = await hook({ PATH: `${bin}:${process.env.PATH}` });
    expect(r.code).toBe(0);
    expect(sessionFiles()).toHaveLength(1);
    expect(readFileSync(join(stateOf(join(project, '.memory')), 'flush.log'), 'utf8')).toMatch(/warning: git: the commits of the session: git log .* failed: no answer within 1000 ms; the work tree: git status .* failed: no answer within 1000 ms; Changed Files holds what the transcript shows/);
  });
});
