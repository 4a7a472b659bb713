import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir, stateOf } from '../../helpers/cli.js';
import { runMemctx } from '../../helpers/run.js';

let project: string;
const mem = () => join(project, '.memory');
const log = () => readFileSync(join(stateOf(mem()), 'flush.log'), 'utf8');
const run = (args: string[], input?: string) => runMemctx(args, { cwd: project, input, env: { HOME: project } });
const transcript = [
  { type: 'user', cwd: '/w/app', message: { role: 'user', content: 'Add retries to the fetcher' } },
  { type: 'assistant', cwd: '/w/app', message: { role: 'assistant', id: 'm1', content: [{ type: 'tool_use', id: 't1', name: 'Write', input: { file_path: '/w/app/src/fetch.ts', content: 'x' } }] } },
  { type: 'assistant', cwd: '/w/app', message: { role: 'assistant', id: 'm2', content: [{ type: 'tool_use', id: 't2', name: 'Write', input: { file_path: '/home/me/.npmrc', content: 'x' } }] } },
  { type: 'assistant', cwd: '/w/app', message: { role: 'assistant', id: 'm3', content: [{ type: 'text', text: 'Retries are in place.' }] } },
].map((l) => JSON.stringify(l)).join('\n');

beforeEach(async () => {
  project = tempDir('memctx-summarize-');
  expect((await run(['init'])).code).toBe(0);
  writeFileSync(join(project, 'session.jsonl'), `${transcript}\n`);
});
afterEach(() => removeDir(project));

const script = (name: string, body: string) => {
  writeFileSync(join(project, name), body);
  return `node ${join(project, name)}`;
};
const fields = async (extra: string[]) => {
  const r = await run(['--json', 'flush', '--transcript', 'session.jsonl', '--dry-run', ...extra]);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as { fields: Record<string, string[]>; warnings: string[] };
};

describe('flush --transcript', () => {
  it('lists a file written outside the working directory as absolute, flagged', async () => {
    expect((await fields([])).fields.changedFiles).toEqual(['src/fetch.ts', '/home/me/.npmrc (outside the working directory)']);
  });
});

describe('flush --summarize-with', () => {
  const answer = { goal: 'Retries for the fetcher', progress: ['retry loop written'], decisions: ['exponential backoff, because the API rate-limits'], changedFiles: ['src/fetch.ts'], blockers: [], nextSteps: ['test against the staging API'] };

  it('takes the answer when it parses into the six fields and fits', async () => {
    const cmd = script('ok.mjs', `let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{if(!s.includes('"nextSteps"')||!s.includes('Add retries'))process.exit(3);console.log('Here it is:\\n'+JSON.stringify(${JSON.stringify(answer)}))})`);
    const r = await fields(['--summarize-with', cmd]);
    expect(r.warnings).toEqual(['written as "none recorded": Blockers. Was there truly nothing? Give them with --blocker, or in --from']);
    expect(r.fields).toMatchObject({ goal: ['Retries for the fetcher'], decisions: ['exponential backoff, because the API rate-limits'], nextSteps: ['test against the staging API'] });
  });
  it('keeps the deterministic summary, and says why, when the command hangs, fails, prints garbage or leaves fields out', async () => {
    const cases: [string, string, string[]][] = [
      ['hang.mjs', 'setInterval(() => {}, 1000)', ['--summarize-timeout', '1']],
      ['fail.mjs', "console.error('model not found'); process.exit(4)", []],
      ['garbage.mjs', "console.log('Sure! The session went well.')", []],
      ['partial.mjs', `console.log(JSON.stringify({ goal: 'x', progress: ['y'] }))`, []],
      ['huge.mjs', `console.log(JSON.stringify({ ...${JSON.stringify(answer)}, progress: Array.from({ length: 400 }, (_, i) => 'step number ' + i + ' of a very long list') }))`, []],
    ];
    const why = [
      'it did not answer within 1 s (stopped)',
      'it exited with code 4 (model not found)',
      'its answer is not JSON or YAML',
      'its answer lacks decisions, changedFiles, blockers, nextSteps',
      'tokens, over the maximum of 650',
    ];
    for (const [i, [name, body, extra]] of cases.entries()) {
      const r = await fields(['--summarize-with', script(name, body), ...extra]);
      expect(r.fields.goal).toEqual(['Add retries to the fetcher']);
      expect(r.warnings.find((w) => w.startsWith('--summarize-with'))).toContain(why[i]);
      expect(r.warnings.find((w) => w.startsWith('--summarize-with'))).toContain('kept the deterministic summary');
    }
  }, 30_000);
});

describe('flush --hook never fails the session', () => {
  const hook = JSON.stringify({ session_id: 's1', transcript_path: 'session.jsonl', cwd: '.', hook_event_name: 'PreCompact', trigger: 'auto' });
  it('an unknown option: exit 0, logged', async () => {
    const r = await run(['flush', '--hook', '--any-unknown-option'], hook);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("memctx flush --hook: unknown option '--any-unknown-option'\n");
    expect(log()).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ hook error: unknown option '--any-unknown-option'\n$/);
  });
  it('a bad value or an unreadable input: exit 0, logged; nothing written', async () => {
    expect((await run(['flush', '--hook', '--target', 'lots'], hook)).code).toBe(0);
    expect(log()).toContain('error: --target must be');
    expect((await run(['flush', '--hook'], '{not json')).code).toBe(0);
    expect(log()).toContain('hook error: hook input is not JSON');
    expect((await run(['flush', '--hook', '--template'], hook)).code).toBe(0);
    expect(log()).toContain("hook error: option '-t, --template <name>' argument missing");
    expect(existsSync(join(mem(), 'sessions')) ? readdirSync(join(mem(), 'sessions')).filter((f) => f.endsWith('.md')) : []).toEqual([]);
  });
  it('a good run still writes the session', async () => {
    expect((await run(['flush', '--hook'], hook)).code).toBe(0);
    expect(log()).toMatch(/PreCompact\(auto\) session=s1 wrote sessions\//);
  });
});

describe('changed files outside the project (issue 30, item 8)', () => {
  it('are listed without their content: no heading of a file outside, or linked from outside, reaches the summary', async () => {
    // Outside the project, in the home folder: a file in a temporary folder is scratch, left out of
    // Changed Files (where HOME itself is temporary, the file is left out and still never read).
    const outside = mkdtempSync(join(homedir(), '.memctx-test-outside-'));
    const listed = !/^\/(?:tmp|var\/tmp|dev\/shm)\//.test(outside);
    try {
      writeFileSync(join(outside, 'secrets.md'), '# DB password is hunter2\n');
      mkdirSync(join(project, 'docs'));
      writeFileSync(join(project, 'docs', 'plan.md'), '# The rollout plan\n');
      symlinkSync(join(outside, 'secrets.md'), join(project, 'docs', 'linked.md'));
      const write = (id: string, path: string) => ({ type: 'assistant', cwd: project, message: { role: 'assistant', id, content: [{ type: 'tool_use', id: `t-${id}`, name: 'Edit', input: { file_path: path, old_string: 'a', new_string: 'b' } }] } });
      const lines = [
        { type: 'user', cwd: project, message: { role: 'user', content: 'Update the plan' } },
        write('m1', join(project, 'docs', 'plan.md')),
        write('m2', join(outside, 'secrets.md')),
        write('m3', join(project, 'docs', 'linked.md')),
      ];
      writeFileSync(join(project, 'outside.jsonl'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
      const r = await run(['--json', 'flush', '--transcript', 'outside.jsonl', '--dry-run']);
      expect(r.code).toBe(0);
      expect((JSON.parse(r.stdout) as { fields: Record<string, string[]> }).fields.changedFiles).toEqual([
        'docs/plan.md — The rollout plan',
        'docs/linked.md',
        ...(listed ? [`${join(outside, 'secrets.md')} (outside the working directory)`] : []),
      ]);
      expect(r.stdout).not.toContain('hunter2');
    } finally {
      removeDir(outside);
    }
  });
});
