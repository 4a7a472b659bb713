/**
 * Issue 32: the offline summary states the end of the session — blockers only for what still fails,
 * the goal the work answered as an ask, the end state first, open work (an unanswered request, a
 * turn cut short) as Next Steps, a finished plan item as progress, Decisions whole with their why,
 * every changed file (subagents' and shell edits; no temporary scratch).
 */
import { describe, expect, it } from 'vitest';
import { extractFacts, readTranscript } from '../../../../src/kernel/transcript/index.js';
import { commandKey, fileOps, onlyLooks, programCommands, simpleCommands } from '../../../../src/kernel/transcript/commands.js';
import { changedGroupLevels, groupChangedLines } from '../../../../src/kernel/summary/changed.js';

const jsonl = (lines: object[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const base = (extra: object = {}) => ({ cwd: '/w/app', sessionId: 's', ...extra });
const user = (content: unknown, extra: object = {}) => ({ type: 'user', ...base(extra), message: { role: 'user', content } });
const say = (text: string, extra: object = {}) => ({ type: 'assistant', ...base(extra), message: { role: 'assistant', id: `m${text.length}${Math.random()}`, content: [{ type: 'text', text }] } });
const call = (id: string, name: string, input: unknown, extra: object = {}) => ({ type: 'assistant', ...base(extra), message: { role: 'assistant', id: `c${id}`, content: [{ type: 'tool_use', id, name, input }] } });
const result = (id: string, content: string, isError = false, extra: object = {}) => user([{ type: 'tool_result', tool_use_id: id, content, is_error: isError }], extra);
const bash = (id: string, command: string, output: string, failed = false) => [call(id, 'Bash', { command }), result(id, output, failed)];
const facts = (lines: object[]) => extractFacts(readTranscript(jsonl(lines)));

describe('blockers: only what still fails at the end', () => {
  it('a shell loop is not a program named `done`; probes and `|| true` are not blockers', () => {
    const f = facts([
      user('Tidy the exporter'),
      ...bash('1', 'for f in src/*.ts; do grep -n TODO "$f"; done', '', true),
      ...bash('2', 'git -C ~/.claude rev-parse --show-toplevel', 'fatal: not a git repository', true),
      ...bash('3', 'test -f src/legacy.ts', '', true),
      ...bash('4', 'command -v rg', '', true),
      ...bash('5', 'make lint || true', 'make: *** [lint] Error 1', true),
      say('Nothing to tidy.'),
    ]);
    expect(f.blockers).toEqual([]);
    expect(programCommands('for f in a b; do make "$f"; done').map((c) => c.words)).toEqual([['do', 'make', '$f']]);
    expect(onlyLooks('git -C ~/.claude rev-parse --show-toplevel')).toBe(true);
    expect(onlyLooks('git -C repo commit -m x')).toBe(false);
  });

  it('a traceback worked around before a commit is settled; a test failure is settled by any runner passing; the last failure of a step replaced by another stands once', () => {
    const settled = facts([
      user('Fix the link checker'),
      ...bash('1', 'python3 scripts/check_links.py', 'Traceback (most recent call last):\nModuleNotFoundError: No module named yaml', true),
      ...bash('2', 'go test ./...', '--- FAIL: TestLinks (0.01s)', true),
      ...bash('3', 'make test', 'ok'),
      ...bash('4', 'git commit -am "links: check with node"', '[main abc1234] links: check with node'),
      say('Committed.'),
    ]);
    expect(settled.blockers).toEqual([]);
    const failing = facts([
      user('Set up the environment'),
      ...bash('1', 'python -m venv .venv', 'bash: python: command not found', true),
      ...bash('2', 'python3 -m venv .venv', 'ensurepip is not available', true),
      say('The environment could not be created.'),
    ]);
    expect(failing.blockers).toEqual(['`python3 -m venv .venv` failed: ensurepip is not available']);
    expect(commandKey('cd app && npm test 2>&1 | tail -3')).toBe('test');
  });
});

describe('goal, end state and open work', () => {
  it('the goal is the request the work answered, as an ask; a later request with work follows it', () => {
    const f = facts([
      user('Review this trail of the export feature and list the problems.'),
      call('r', 'Read', { file_path: '/w/app/src/export.ts' }),
      result('r', 'code'),
      say('Three problems.'),
      user('We agreed on the list. Open a new trail and fix the findings you listed.'),
      call('e', 'Edit', { file_path: '/w/app/src/export.ts', old_string: 'a', new_string: 'b' }),
      result('e', 'updated'),
      call('w', 'Write', { file_path: '/w/app/src/path.ts', content: 'x' }),
      result('w', 'created'),
      say('Fixed.'),
    ]);
    expect(f.goal).toEqual(['Open a new trail and fix the findings you listed.']);
  });

  it('Progress opens with the end state; a plan item left in progress whose work went on to a commit and a push is progress; an unanswered request is the next step', () => {
    const f = facts([
      user('Make the config loader read YAML'),
      call('t', 'TodoWrite', { todos: [{ content: 'Run the tests', status: 'in_progress' }] }),
      result('t', 'ok'),
      call('e', 'Edit', { file_path: '/w/app/src/load.ts', old_string: 'a', new_string: 'b' }),
      result('e', 'updated'),
      ...bash('1', 'npm test', 'Tests 41 passed'),
      ...bash('2', 'git commit -am "config: YAML"', '[yaml 9f8e7d6] config: YAML'),
      ...bash('3', 'git push origin yaml', '   1111111..9f8e7d6  yaml -> yaml'),
      say('Pushed.'),
      user('Can we submit a PR?'),
    ]);
    expect(f.progress.slice(0, 2)).toEqual(['End state: committed 9f8e7d6, pushed yaml, tests passing (`npm test`).', 'Pushed.']);
    expect(f.progress).toContain('Run the tests');
    expect(f.nextSteps).toEqual(["Answer the user's request: Can we submit a PR?"]);
  });

  it('a session that stops mid-turn leaves that request as the next step, and its narration is not the end state', () => {
    const f = facts([
      user('Add rate limiting to the login endpoint.'),
      say('Let me look at the middleware first.'),
      call('w', 'Write', { file_path: '/w/app/src/limit.ts', content: 'x' }),
      result('w', 'created'),
      call('e', 'Edit', { file_path: '/w/app/src/server.ts', old_string: 'a', new_string: 'b' }),
    ]);
    expect(f.nextSteps).toEqual(['Finish the request the session stopped in: Add rate limiting to the login endpoint.']);
    expect(f.progress).toEqual([]);
  });

  it('when every command failed, the blockers stand and the final instruction to the user is the next step', () => {
    const f = facts([
      user('Run the test suite.'),
      ...bash('1', 'pytest -q', 'bash: pytest: command not found', true),
      say('pytest is not installed here. Install pytest (pip install pytest), then run the suite again.'),
    ]);
    expect(f.blockers).toEqual(['`pytest -q` failed: bash: pytest: command not found']);
    expect(f.nextSteps).toEqual(['Install pytest (pip install pytest), then run the suite again.']);
  });
});

describe('decisions: whole statements with a why, never narration', () => {
  it('keeps the final message\'s reasoned statements and a fix with the issue it answers; drops narration and reactions', () => {
    const f = facts([
      user('Harden the exporter'),
      say("I'm pulling the lower half of that file and the CLI tests so I can see the handler."),
      say('**Issue:** the base ref was interpolated into a shell string\n**Fix:** pass it to git as an argument'),
      say('Good, gofmt rewrote the loop instead of the manual copy.'),
      say('All done.\n\n- The old module moved to src/export/legacy.ts so that existing imports keep working.'),
    ]);
    expect(f.decisions).toEqual([
      'pass it to git as an argument, because the base ref was interpolated into a shell string.',
      'The old module moved to src/export/legacy.ts so that existing imports keep working.',
    ]);
  });
});

describe('changed files', () => {
  it("subagents' edits count (a transcript of sidechains only included), sed -i and formatters' files count, temporary scratch does not", () => {
    const side = { isSidechain: true };
    const onlySide = facts([
      user('Return JSON errors from the handlers', side),
      call('e', 'Edit', { file_path: '/w/app/internal/api/handlers.go', old_string: 'a', new_string: 'b' }, side),
      result('e', 'updated', false, side),
      say('The handlers return JSON errors through writeError, because the clients parse the body.', side),
    ]);
    expect(onlySide.changedFiles.map((c) => c.path)).toEqual(['internal/api/handlers.go']);
    expect(onlySide.goal).toEqual(['Return JSON errors from the handlers']);
    const mixed = facts([
      user('Rename the export'),
      call('s', 'Task', { prompt: 'rename' }),
      call('e', 'Edit', { file_path: '/w/app/src/a.ts', old_string: 'a', new_string: 'b' }, side),
      result('e', 'updated', false, side),
      result('s', 'done'),
      ...bash('1', "sed -i 's/old/new/' src/b.ts src/c.ts && npx prettier --write src/d.ts", ''),
      call('w', 'Write', { file_path: '/tmp/cand.txt', content: 'x' }),
      result('w', 'created'),
      say('Renamed.'),
    ]);
    expect(mixed.changedFiles.map((c) => c.path)).toEqual(['src/a.ts', 'src/b.ts', 'src/c.ts', 'src/d.ts']);
    expect(simpleCommands("sed -i.bak -e 's/a/b/' x.txt").flatMap(fileOps)).toEqual([{ kind: 'write', path: 'x.txt' }]);
  });

  it('many files group by folder with counts, every file covered, files outside the project last', () => {
    const lines = [...Array.from({ length: 30 }, (_, i) => `pkg/a/f${i}.go — handler`), 'pkg/b/one.go (new)', 'README.md', '/etc/hosts (outside the working directory)'];
    expect(changedGroupLevels(lines)).toBe(3);
    expect(groupChangedLines(lines, 1)[0]).toBe('pkg/a/f0.go');
    expect(groupChangedLines(lines, 2)).toEqual(['pkg/a/ (30 files)', 'pkg/b/one.go (new)', 'README.md', '/etc/hosts (outside the working directory)']);
    expect(groupChangedLines(lines, 3)).toEqual(['pkg/ (31 files)', 'README.md', '/etc/hosts (outside the working directory)']);
  });
});

describe('decisions from a compaction summary', () => {
  it('an error item whose name is long takes the sentence before its fix as the why; one with a why of its own is left as it is', async () => {
    const { summaryDecisions, summarySections } = await import('../../../../src/kernel/transcript/compaction.js');
    const summary = [
      '5. Errors and fixes:',
      '   - **Condensed sessions were skipped with an unknown agent type warning in the logs**: `agent.GetByAgentType("")` returned an error. Fixed by adding a fallback to `agent.Default()` when the lookup fails.',
      '   - **A long label that says nothing about the fix and runs past the limit**: The linter complained. Fixed by removing `omitempty` since `CreatedAt` does not use it either.',
    ].join('\n');
    expect(summaryDecisions(summarySections(summary))).toEqual([
      'Fixed by adding a fallback to `agent.Default()` when the lookup fails, because `agent.GetByAgentType("")` returned an error.',
      'Fixed by removing `omitempty` since `CreatedAt` does not use it either.',
    ]);
  });
});

describe('a session resumed three times (issue 32, bad inputs)', () => {
  // `claude --resume` writes a summary record and goes on in the same session; each part here starts with one
  const resumed = (n: number) => ({ type: 'summary', summary: `Part ${n}`, leafUuid: `leaf${n}` });

  it('states the end of the last part: what stopped in an earlier part and finished later is progress, not a next step', () => {
    const f = facts([
      user('Add rate limiting to the login endpoint.'),
      call('w', 'Write', { file_path: '/w/app/src/limit.ts', content: 'x' }),
      resumed(1),
      user('continue'),
      call('e', 'Edit', { file_path: '/w/app/src/server.ts', old_string: 'a', new_string: 'b' }),
      result('e', 'updated'),
      ...bash('t', 'npm test', 'all 40 tests passed'),
      say('Rate limiting is in: 5 attempts per minute per IP, and the tests pass.'),
      resumed(2),
      user('Commit it.'),
      ...bash('c', 'git commit -am "feat: rate-limit login"', '[main abc1234] feat: rate-limit login\n 2 files changed'),
      say('Committed as abc1234.'),
      resumed(3),
      user('Can we push it?'),
      ...bash('p', 'git push', 'To github.com:acme/app.git\n   0f0f0f0..abc1234  main -> main'),
      say('Done: pushed main.'),
    ]);
    expect(f.goal[0]).toBe('Add rate limiting to the login endpoint.');
    expect(f.progress[0]).toBe('End state: committed abc1234, pushed main, tests passing (`npm test`).');
    expect(f.nextSteps).toEqual(['None: the session ended with the work done.']);
    expect(f.blockers).toEqual([]);
    expect(f.changedFiles.map((c) => c.path)).toEqual(['src/limit.ts', 'src/server.ts']);
  });

  it('a request left unanswered in the last part is the next step, whatever the earlier parts finished', () => {
    const f = facts([
      user('Add rate limiting to the login endpoint.'),
      ...bash('c', 'git commit -am "feat: rate-limit login"', '[main abc1234] feat: rate-limit login\n 2 files changed'),
      say('Done: committed abc1234.'),
      resumed(1),
      resumed(2),
      resumed(3),
      user('Can we submit a PR for it?'),
    ]);
    expect(f.nextSteps).toEqual(["Answer the user's request: Can we submit a PR for it?"]);
  });
});
