import { describe, expect, it } from 'vitest';
import { extractFacts, readTranscript } from '../../../src/kernel/transcript/index.js';
import { transcriptFields } from '../../../src/commands/flush/extract.js';

const jsonl = (lines: object[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
let n = 0;
const user = (content: unknown, extra: object = {}) => ({ type: 'user', cwd: '/w/app', sessionId: 's1', timestamp: '2026-11-20T10:00:00Z', message: { role: 'user', content }, ...extra });
const assistant = (content: unknown, extra: object = {}) => ({ type: 'assistant', cwd: '/w/app', sessionId: 's1', timestamp: '2026-11-20T11:30:00Z', message: { role: 'assistant', id: `m${n++}`, content }, ...extra });
const say = (text: string) => assistant([{ type: 'text', text }]);
const toolUse = (id: string, name: string, input: unknown) => assistant([{ type: 'tool_use', id, name, input }]);
const toolResult = (id: string, content: string, isError = false) => user([{ type: 'tool_result', tool_use_id: id, content, is_error: isError }]);
const bash = (id: string, command: string, output: string, isError = false) => [toolUse(id, 'Bash', { command }), toolResult(id, output, isError)];
const facts = (lines: object[]) => extractFacts(readTranscript(jsonl(lines)));
const fields = (lines: object[]) => transcriptFields(readTranscript(jsonl(lines)), { extract: extractFacts });

const SUMMARY = [
  'This session is being continued from a previous conversation that ran out of context.',
  'Summary:',
  '1. Primary Request and Intent:',
  '   - Add rate limiting to the API gateway',
  '4. Errors and fixes:',
  '   - **Redis timeouts under load**: the limiter blocked every request.',
  '     - Fixed by moving the counter to an in-process token bucket, because Redis added 40 ms per call',
  '   - **gofmt trailing newline**: Fixed by running gofmt',
  '5. Problem Solving:',
  '   - Chose a sliding window instead of a fixed window so bursts at the boundary are counted',
  '   - Successfully ran the whole suite',
  '7. Pending Tasks:',
  '   - Write the load test',
  '8. Current Work:',
  '   Wiring the limiter into the gateway middleware.',
  '9. Optional Next Step:',
  '   Run the load test against staging.',
].join('\n');

describe('a compaction summary describes the moment of compaction', () => {
  it('with nothing after it, its current work and next steps stand', () => {
    const f = facts([user('Add rate limiting'), user(SUMMARY, { isCompactSummary: true })]);
    expect(f.goal).toEqual(['Add rate limiting to the API gateway']);
    expect(f.progress).toEqual(['Wiring the limiter into the gateway middleware.']);
    expect(f.nextSteps).toEqual(['Write the load test', 'Run the load test against staging.']);
  });

  it('work after it wins: its current work and next steps give way to what finished (commits, pushes, the final statement)', () => {
    const f = facts([
      user('Add rate limiting'),
      user(SUMMARY, { isCompactSummary: true }),
      ...bash('c1', "git add -A && git commit -m \"$(cat <<'EOF'\nfeat: wire the limiter into the gateway\n\nUse a token bucket per client instead of a global counter\nEOF\n)\"", '[main 1a2b3c4] feat: wire the limiter into the gateway\n 2 files changed'),
      ...bash('p1', 'git push', 'To github.com:acme/api.git\n   0f0f0f0..1a2b3c4  main -> main'),
      say('All done: the limiter is wired in, the load test passes, and the change is pushed.'),
    ]);
    // the end state first (the last commit and push), the final statement, the commits with their subjects
    expect(f.progress).toEqual(['End state: committed 1a2b3c4, pushed main.', 'All done: the limiter is wired in, the load test passes, and the change is pushed.', 'Committed 1a2b3c4: feat: wire the limiter into the gateway']);
    expect(f.nextSteps).toEqual(['None: the session ended with the work done.']);
  });

  it("decisions come from its decision-bearing sections without their labels (mechanical fixes and plain activity left out), then the commits' what-and-why", () => {
    const f = facts([
      user('Add rate limiting'),
      user(SUMMARY, { isCompactSummary: true }),
      ...bash('c1', 'git commit -m "feat: limiter\n\nUse a token bucket per client instead of a global counter"', '[main 1a2b3c4] feat: limiter'),
    ]);
    expect(f.decisions).toEqual([
      'Redis timeouts under load: Fixed by moving the counter to an in-process token bucket, because Redis added 40 ms per call',
      'Chose a sliding window instead of a fixed window so bursts at the boundary are counted',
      'Use a token bucket per client instead of a global counter',
    ]);
    expect(f.decisions.join('\n')).not.toMatch(/\*|gofmt|Successfully/);
  });

  it('two compactions: the goal is the first one\'s primary request; the later one\'s next steps give way to work after it', () => {
    const later = SUMMARY.replace('Add rate limiting to the API gateway', 'Fix the lint failures').replace('Run the load test against staging.', 'Push the fix.');
    const f = facts([user('Add rate limiting'), user(SUMMARY, { isCompactSummary: true }), say('Continuing.'), user(later, { isCompactSummary: true }), ...bash('p', 'git push', 'To github.com:acme/api.git\n   1a2b3c4..5d6e7f8  main -> main'), say('Pushed the lint fix.')]);
    expect(f.goal).toEqual(['Add rate limiting to the API gateway']);
    expect(f.nextSteps).toEqual([]);
    expect(f.progress).toEqual(['End state: pushed main.', 'Pushed the lint fix.']);
  });

  it('a session resumed after compaction: the task list after it is the state; tasks closed one by one (TaskCreate/TaskUpdate) count', () => {
    const f = facts([
      user(SUMMARY, { isCompactSummary: true }),
      user('continue'),
      toolUse('t1', 'TaskCreate', { subject: 'Write the load test' }),
      toolUse('t2', 'TaskCreate', { subject: 'Update the README' }),
      toolUse('t3', 'TaskUpdate', { taskId: '1', status: 'completed' }),
      toolUse('t4', 'TaskUpdate', { taskId: '2', status: 'in_progress' }),
    ]);
    expect(f.progress).toEqual(['Write the load test']);
    expect(f.nextSteps).toEqual(['Update the README']);
  });
});

describe('the end of the session', () => {
  it('a reply to a background-task notification is never Progress', () => {
    const f = facts([user('Speed up the build'), say('I switched the bundler to esbuild and the build takes 4 s now.'), user('<task-notification>\n<task-id>b1</task-id>\n<status>completed</status>\n</task-notification>'), say('The background task finished; nothing to do.')]);
    expect(f.progress).toEqual(['I switched the bundler to esbuild and the build takes 4 s now.']);
  });

  it("a closing question to the user is a next step; the final message's stated follow-ups are next steps", () => {
    const f = facts([user('Refactor the parser'), say('Refactored the parser. Caching the AST is left for a follow-up.\n\nWant me to add the cache now?')]);
    expect(f.nextSteps).toEqual(['Caching the AST is left for a follow-up.', "Answer the agent's question: Want me to add the cache now?"]);
  });

  it('a trivial reply is never the goal', () => {
    expect(facts([user('yes'), user('3'), user('Review the open pull request comments')]).goal).toEqual(['Review the open pull request comments']);
  });

  it('"Next steps:" stated before a later request are stale', () => {
    const f = fields([user('Build the login page'), say('Done.\n\nNext steps:\n- add the logout button'), user('Now add the logout button'), say('Added the logout button.')]);
    expect(f.nextSteps).toEqual([]);
  });
});

describe('blockers', () => {
  it('transient failures are not blockers: a pathspec slip fixed by the next command, a build rerun from the right folder, a failed search', () => {
    const f = facts([
      user('Ship it'),
      ...bash('a', 'git add src/limter.ts', "fatal: pathspec 'src/limter.ts' did not match any files", true),
      ...bash('b', 'git add src/limiter.ts', ''),
      ...bash('c', 'cd web && npm run build', 'npm ERR! Missing script: "build"', true),
      ...bash('d', 'cd app && npm run build 2>&1 | tail -3', 'built in 2.1s'),
      ...bash('e', 'rg -n "TODO" src', 'rg: src: No such file or directory', true),
    ]);
    expect(f.blockers).toEqual([]);
  });

  it('a failure with no later success stays, with the error line rather than the tool\'s output headers', () => {
    const codex = jsonl([
      { type: 'session_meta', payload: { id: 'c1', cwd: '/w/app' } },
      { type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Fix the parser' }] } },
      { type: 'response_item', payload: { type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd: 'python -m pytest tests/test_parse.py' }), call_id: 'x' } },
      { type: 'response_item', payload: { type: 'function_call_output', call_id: 'x', output: 'Chunk ID: 3f2a\nWall time: 1.2 seconds\nProcess exited with code 1\nOutput:\n    assert parse("1+") == None\nAssertionError: expected None, got Node(op=+)' } },
    ]);
    expect(extractFacts(readTranscript(codex)).blockers).toEqual(['`python -m pytest tests/test_parse.py` failed: AssertionError: expected None, got Node(op=+)']);
  });
});

describe('Codex', () => {
  const meta = { type: 'session_meta', timestamp: '2026-11-20T09:00:00.000Z', payload: { id: 'rollout-1', cwd: '/w/app', instructions: 'You are Codex. Always answer in French.' } };
  const msg = (role: string, text: string) => ({ type: 'response_item', timestamp: '2026-11-20T09:30:00.000Z', payload: { type: 'message', role, content: [{ type: role === 'user' ? 'input_text' : 'output_text', text }] } });
  const plan = (id: string, steps: [string, string][]) => ({ type: 'response_item', payload: { type: 'function_call', name: 'update_plan', call_id: id, arguments: JSON.stringify({ plan: steps.map(([step, status]) => ({ step, status })) }) } });

  it('a DECISION: line that also holds a cue ("instead of") is listed once', () => {
    const t = readTranscript(jsonl([meta, msg('user', 'Cache the index'), msg('assistant', 'DECISION: keep the index in memory instead of on disk, because reads dominate.')]));
    expect(transcriptFields(t, { extract: extractFacts }).decisions).toEqual(['keep the index in memory instead of on disk, because reads dominate.']);
  });

  it('a resumed session keeps every run\'s progress (a new plan does not erase what the first run finished)', () => {
    const f = extractFacts(readTranscript(jsonl([meta, msg('user', 'Port the CLI'), plan('p1', [['Port the parser', 'completed'], ['Port the printer', 'in_progress']]), meta, plan('p2', [['Port the printer', 'completed'], ['Release', 'pending']])])));
    expect(f.progress).toEqual(['Port the printer', 'Port the parser']);
    expect(f.nextSteps).toEqual(['Release']);
  });

  it('a rollout whose every text is redacted says nothing could be read and takes no goal from its instructions', () => {
    const t = readTranscript(jsonl([meta, msg('user', '<user_instructions>\nAlways answer in French.\n</user_instructions>'), msg('user', '[REDACTED]'), msg('assistant', '[REDACTED]')]));
    const f = transcriptFields(t, { extract: extractFacts });
    expect(f.unreadable).toMatch(/nothing could be read/);
    expect(f.request).toBeUndefined();
    expect(f.goal).toEqual([]);
  });

  it('apply_patch: a deleted file is marked deleted, a moved one listed under its new path', () => {
    const patch = (id: string, input: string) => ({ type: 'response_item', payload: { type: 'custom_tool_call', name: 'apply_patch', call_id: id, input } });
    const f = extractFacts(readTranscript(jsonl([
      meta,
      msg('user', 'Tidy the app'),
      patch('a', '*** Begin Patch\n*** Add File: app.js\n+x\n*** End Patch'),
      patch('b', '*** Begin Patch\n*** Update File: util.js\n*** Move to: lib/util.js\n@@\n-a\n+b\n*** Delete File: app.js\n*** End Patch'),
    ])));
    expect(f.changedFiles.map((c) => [c.path, c.from ?? null, c.deleted ?? false])).toEqual([
      ['app.js', null, true],
      ['lib/util.js', 'util.js', false],
    ]);
  });

  it('records the session id and the times of its first and last lines', () => {
    const t = readTranscript(jsonl([meta, msg('user', 'Port the CLI')]));
    expect(t).toMatchObject({ sessionId: 'rollout-1', startedAt: '2026-11-20T09:00:00Z', endedAt: '2026-11-20T09:30:00Z' });
  });
});

describe('changed files from what happened', () => {
  it('edits, shell moves (into and out of the project), git mv, cp, rm and > redirections, each under its final path; agent plan files left out', () => {
    const f = facts([
      user('Reorganise'),
      toolUse('w', 'Write', { file_path: '/w/app/src/old.ts', content: 'x' }),
      toolResult('w', 'ok'),
      toolUse('p', 'Write', { file_path: '/home/me/.claude/plans/plan.md', content: 'plan' }),
      toolResult('p', 'ok'),
      ...bash('m', 'mv src/old.ts src/new.ts && git mv README.txt docs/', ''),
      ...bash('i', 'mv /tmp/gen.sql migrations/001.sql', ''),
      ...bash('o', 'mv notes.md /tmp/notes.md', ''),
      ...bash('c', 'cp config.example.json config.json && rm -f .git/index.lock build.log', ''),
      ...bash('r', 'npm ls --json > deps.json 2> err.log', ''),
    ]);
    expect(f.changedFiles.map((c) => ({ path: c.path, from: c.from, deleted: c.deleted, movedTo: c.movedTo }))).toEqual([
      { path: 'src/new.ts', from: 'src/old.ts', deleted: undefined, movedTo: undefined },
      { path: 'docs/README.txt', from: 'README.txt', deleted: undefined, movedTo: undefined },
      { path: 'migrations/001.sql', from: '/tmp/gen.sql', deleted: undefined, movedTo: undefined },
      { path: 'notes.md', from: undefined, deleted: true, movedTo: '/tmp/notes.md' },
      { path: 'config.json', from: undefined, deleted: undefined, movedTo: undefined },
      { path: 'build.log', from: undefined, deleted: true, movedTo: undefined },
      { path: 'deps.json', from: undefined, deleted: undefined, movedTo: undefined },
    ]);
  });
});

describe('work done but not committed (issue 32: claude-2.1.39-condensation)', () => {
  const edit = (id: string) => [toolUse(id, 'Edit', { file_path: '/w/app/src/limit.ts', old_string: 'a', new_string: 'b' }), toolResult(id, 'The file has been updated.')];

  it('a session that edited files and made no commit says the changes are still to be committed, not "None"', () => {
    const f = facts([user('Add rate limiting to the gateway'), ...edit('e1'), ...bash('t1', 'npm test', 'all 12 tests passed'), say('All done: the limiter is in and the tests pass.')]);
    expect(f.nextSteps).toEqual(['Commit the finished work: the session made no commit, so the changes are not committed yet.']);
  });

  it('files edited after the last commit: the same, naming the commit', () => {
    const f = facts([
      user('Add rate limiting to the gateway'),
      ...edit('e1'),
      ...bash('c1', 'git commit -am "feat: limiter"', '[main 1a2b3c4] feat: limiter\n 1 file changed'),
      ...edit('e2'),
      say('All done: the limiter is in and the tests pass.'),
    ]);
    expect(f.nextSteps).toEqual(['Commit the finished work: files were edited after the last commit, so the changes are not committed yet.']);
  });

  it('edits committed at the end: "None"', () => {
    const f = facts([user('Add rate limiting to the gateway'), ...edit('e1'), ...bash('c1', 'git commit -am "feat: limiter"', '[main 1a2b3c4] feat: limiter\n 1 file changed'), say('All done: the limiter is in and the tests pass.')]);
    expect(f.nextSteps).toEqual(['None: the session ended with the work done.']);
  });
});

describe('Progress: the commit the end state names (issue 32: claude-2.1.37-midturn)', () => {
  it("its subject follows the session's other commits, which the end state does not name", () => {
    const f = facts([
      user('Fix the limiter and answer the review'),
      ...bash('c1', 'git commit -am "fix: limiter counts bursts"', '[main 1111111] fix: limiter counts bursts\n 1 file changed'),
      ...bash('c2', 'git commit -am "Address PR review: scope the limiter to clients"', '[main 2222222] Address PR review: scope the limiter to clients\n 1 file changed'),
      ...bash('c3', 'git commit -am "fix: reset the bucket"', '[main 3333333] fix: reset the bucket\n 1 file changed'),
      say('All done: both fixes and the review are committed.'),
    ]);
    expect(f.progress).toEqual([
      'End state: committed 3333333.',
      'All done: both fixes and the review are committed.',
      'Committed 2222222: Address PR review: scope the limiter to clients',
      'Committed 1111111: fix: limiter counts bursts',
      'Committed 3333333: fix: reset the bucket',
    ]);
  });
});
