import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../helpers/cli.js';
import { runMemctx } from '../../helpers/run.js';
import { claudeMemoryDir, sanitizeProjectPath } from '../../../src/kernel/store/find.js';
import { detectFormat, extractFacts, readTranscript } from '../../../src/kernel/transcript/index.js';
import { transcriptFields } from '../../../src/commands/flush/extract.js';

const jsonl = (lines: object[], eol = '\n') => lines.map((l) => JSON.stringify(l)).join(eol) + eol;
const user = (content: unknown, extra: object = {}) => ({ type: 'user', cwd: '/w/app', sessionId: 's', message: { role: 'user', content }, ...extra });
const assistant = (content: unknown, extra: object = {}) => ({ type: 'assistant', cwd: '/w/app', sessionId: 's', message: { role: 'assistant', id: `m${Math.random()}`, content }, ...extra });
const toolUse = (id: string, name: string, input: unknown) => assistant([{ type: 'tool_use', id, name, input }]);
const toolResult = (id: string, content: string, isError = false) => user([{ type: 'tool_result', tool_use_id: id, content, is_error: isError }]);
const facts = (text: string) => extractFacts(readTranscript(text));

describe('goal', () => {
  it('a slash command keeps its name and arguments; its expanded template and built-in commands are skipped', () => {
    const t = jsonl([
      user('<command-name>/clear</command-name>\n<command-message>clear</command-message>\n<command-args></command-args>'),
      user('<command-message>review-pr is running…</command-message>\n<command-name>/review-pr</command-name>\n<command-args>123 --strict</command-args>'),
      user('# Review a pull request\nRead the diff of PR $ARGUMENTS and …', { isMeta: true }),
    ]);
    expect(facts(t).goal).toEqual(['/review-pr 123 --strict']);
  });
  it("the compaction summary's Primary Request replaces the first prompt; a summary without the usual sections does not", () => {
    const summary = 'This session is being continued from a previous conversation.\nSummary:\n1. Primary Request and Intent:\n   - Port the parser to Rust\n2. Pending Tasks:\n   - Benchmark it\n3. Current Work:\n   Rewriting the tokenizer.';
    expect(facts(jsonl([user('hi'), user(summary, { isCompactSummary: true })]))).toMatchObject({ goal: ['Port the parser to Rust'], progress: ['Rewriting the tokenizer.'], nextSteps: ['Benchmark it'] });
    expect(facts(jsonl([user('Speed up the build'), user('This session is being continued. We talked about caching.', { isCompactSummary: true })]))).toMatchObject({ goal: ['Speed up the build'], progress: [], nextSteps: [] });
  });
});

describe('task lists and decisions', () => {
  it('TodoWrite with malformed todos: the well-formed ones count, blocked ones are blockers', () => {
    const t = jsonl([
      user('Ship it'),
      toolUse('a', 'TodoWrite', { todos: [{ content: 'write code', status: 'completed' }, 'not an object', { status: 'pending' }, { content: 'no status' }, { content: 'deploy (blocked on creds)', status: 'pending' }, { content: 'test it', status: 'in_progress' }] }),
    ]);
    expect(facts(t)).toMatchObject({ progress: ['write code'], blockers: ['deploy (blocked on creds)'], nextSteps: ['test it'] });
    expect(facts(jsonl([user('x'), toolUse('a', 'TodoWrite', { todos: 'oops' })])).progress).toEqual([]);
  });
  it('a marker in the middle of a line is caught', () => {
    const t = readTranscript(jsonl([user('go'), assistant([{ type: 'text', text: 'Continue. DECISION: batch size 10k because memory peaks at 12k' }])]));
    expect(transcriptFields(t, { extract: extractFacts }).decisions[0]).toBe('batch size 10k because memory peaks at 12k');
  });
  it('Codex update_plan: completed steps are progress, pending ones next steps', () => {
    const plan = { plan: [{ step: 'Read the code', status: 'completed' }, { step: 'Patch it', status: 'in_progress' }, { step: 'Test', status: 'pending' }] };
    const t = jsonl([
      { type: 'session_meta', payload: { id: 'x', cwd: '/w/app' } },
      { type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<environment_context>\n<cwd>/w/app</cwd>\n</environment_context>' }] } },
      { type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Fix the crash' }] } },
      { type: 'response_item', payload: { type: 'function_call', name: 'update_plan', arguments: JSON.stringify(plan), call_id: 'p' } },
    ]);
    expect(facts(t)).toMatchObject({ goal: ['Fix the crash'], progress: ['Read the code'], nextSteps: ['Patch it', 'Test'] });
  });
});

describe('blockers', () => {
  it('an error later followed by a success of the same command is not a blocker; one that still fails is, with its failing tests', () => {
    const t = jsonl([
      user('Fix the tests'),
      toolUse('1', 'Bash', { command: 'npm run build' }),
      toolResult('1', 'error TS2304: Cannot find name x', true),
      toolUse('2', 'Bash', { command: 'npm run build' }),
      toolResult('2', 'built'),
      toolUse('3', 'Bash', { command: 'cd app && go test ./...' }),
      toolResult('3', '--- FAIL: TestParse (0.00s)\n--- FAIL: TestLex (0.01s)\nFAIL', true),
      toolUse('4', 'Read', { file_path: '/w/app/missing.go' }),
      toolResult('4', 'File does not exist.', true),
    ]);
    expect(facts(t).blockers).toEqual(['`go test ./...` fails: TestParse, TestLex']);
  });
  it('an API error at the end is a blocker', () => {
    const t = jsonl([user('go'), assistant([{ type: 'text', text: 'Working on it.' }]), { type: 'assistant', isApiErrorMessage: true, message: { role: 'assistant', model: '<synthetic>', content: [{ type: 'text', text: 'API Error: 529 Overloaded' }] } }]);
    expect(facts(t).blockers).toEqual(['API error: API Error: 529 Overloaded']);
  });
});

describe('changed files', () => {
  it('relative to the working directory; outside it absolute and flagged; failed writes left out', () => {
    const t = jsonl([user('x'), toolUse('1', 'Write', { file_path: '/w/app/src/a.ts', content: '' }), toolUse('2', 'Edit', { file_path: '/etc/hosts' }), toolUse('3', 'Edit', { file_path: '/w/app/b.ts' }), toolResult('3', 'String not found', true)]);
    expect(facts(t).changedFiles).toEqual([{ path: 'src/a.ts', abs: '/w/app/src/a.ts' }, { path: '/etc/hosts', abs: '/etc/hosts', outside: true }]);
  });
  it('apply_patch directly and through shell_command / exec_command; a malformed header is skipped', () => {
    const patch = (paths: string[]) => `*** Begin Patch\n${paths.map((p) => `*** Update File: ${p}\n@@\n-a\n+b`).join('\n')}\n*** End Patch`;
    const t = jsonl([
      { type: 'session_meta', payload: { id: 'x', cwd: '/w/app' } },
      { type: 'response_item', payload: { type: 'custom_tool_call', name: 'apply_patch', input: patch(['src/one.ts']), call_id: 'a' } },
      { type: 'response_item', payload: { type: 'function_call', name: 'shell_command', arguments: JSON.stringify({ command: `apply_patch <<'EOF'\n${patch(['src/two.ts'])}\nEOF` }), call_id: 'b' } },
      { type: 'response_item', payload: { type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd: `apply_patch <<'EOF'\n${patch(['/w/app/src/three.ts', ''])}\nEOF` }), call_id: 'c' } },
      { type: 'response_item', payload: { type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['apply_patch', '*** Begin Patch\n*** Add File:\n*** Add File: src/four.ts\n+x\n*** End Patch'] }), call_id: 'd' } },
      // newer Codex: a script for its `exec` tool, the patch quoted inside it
      { type: 'response_item', payload: { type: 'custom_tool_call', status: 'completed', name: 'exec', input: 'text(await tools.apply_patch({input:"*** Begin Patch\\n*** Update File: src/five.ts\\n@@\\n-a\\n+b\\n*** End Patch"}));\n', call_id: 'e' } },
    ]);
    expect(facts(t).changedFiles.map((f) => f.path)).toEqual(['src/one.ts', 'src/two.ts', 'src/three.ts', 'src/four.ts', 'src/five.ts']);
  });
});

describe('odd inputs', () => {
  it('CRLF line endings and a truncated last line', () => {
    const text = jsonl([user('Tidy the docs'), toolUse('1', 'Write', { file_path: '/w/app/README.md', content: 'x' })], '\r\n') + '{"type":"assistant","message":{"role":"ass';
    const t = readTranscript(text);
    expect(t.notes.map((n) => n.message)).toEqual(['line 3 is an incomplete JSON line (truncated write?); ignored']);
    expect(extractFacts(t)).toMatchObject({ goal: ['Tidy the docs'], changedFiles: [{ path: 'README.md' }] });
  });
  it('a transcript mixing formats is read as the first line says, the other lines skipped, nothing thrown', () => {
    const text = jsonl([user('Claude first'), { type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'codex line' }] } }]);
    expect(detectFormat(text, { complete: true })).toBe('claude');
    expect(facts(text).goal).toEqual(['Claude first']);
  });
});

describe('usage and windows', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('memctx-windows-');
  });
  afterEach(() => removeDir(dir));
  const status = async (lines: object[]) => {
    writeFileSync(join(dir, 't.jsonl'), jsonl(lines));
    return JSON.parse((await runMemctx(['--json', 'status', 't.jsonl'], { cwd: dir })).stdout);
  };
  const usage = (n: number, extra: object = {}) => ({ type: 'assistant', isSidechain: false, message: { id: `m${n}`, model: 'claude-opus-4-6', role: 'assistant', content: [], usage: { input_tokens: n, cache_read_input_tokens: 0 } }, ...extra });

  it('a 1M-context Opus session over 200,000 reads against 1M, and says why', async () => {
    expect(await status([usage(353_000)])).toMatchObject({ used: 353_000, window: 1_000_000, windowSource: 'Claude Opus 4.6 with its 1M window, since usage exceeds 200,000', level: 'green' });
  });
  it("a subagent's compact_boundary is ignored; a subagent transcript on its own uses its own usage", async () => {
    expect(await status([usage(50_000), { type: 'system', subtype: 'compact_boundary', isSidechain: true, compactMetadata: { postTokens: 0 } }])).toMatchObject({ used: 50_000 });
    expect(await status([{ type: 'user', isSidechain: true, message: { role: 'user', content: 'task' } }, usage(42_000, { isSidechain: true })])).toMatchObject({ used: 42_000, source: 'recorded' });
  });
  it('a gpt-5 rollout that records no window reads against 258,400', async () => {
    const r = await status([{ type: 'turn_context', payload: { model: 'gpt-5-codex' } }, { type: 'event_msg', payload: { type: 'token_count', info: { last_token_usage: { total_tokens: 129_200 } } } }]);
    expect(r).toMatchObject({ used: 129_200, window: 258_400, percent: 50 });
  });
  // How fast: bench/hardening.bench.ts (status, 100 MB single line, the same size refusal).
  it('a 100 MB transcript that records no usage: a clear error', async () => {
    const line = `${JSON.stringify(user('x'.repeat(1000)))}\n`;
    writeFileSync(join(dir, 'big.jsonl'), line.repeat(Math.ceil((100 * 1024 * 1024) / line.length)));
    const r = await runMemctx(['status', 'big.jsonl'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('big.jsonl: is 100 MB, over the 64 MB limit for reading a transcript whole; not read');
  });
});

describe('--claude', () => {
  let home: string;
  beforeEach(() => {
    home = tempDir('memctx-claude-home-');
  });
  afterEach(() => removeDir(home));

  it('follows CLAUDE_CONFIG_DIR', () => {
    expect(claudeMemoryDir('/w/app', home, { CLAUDE_CONFIG_DIR: join(home, 'cfg') })).toBe(join(home, 'cfg', 'projects', '-w-app', 'memory'));
    expect(claudeMemoryDir('/w/app', home, {})).toBe(join(home, '.claude', 'projects', '-w-app', 'memory'));
  });
  it('autoMemoryDirectory: user settings, then the project local settings; the shared project settings and relative paths are not trusted', () => {
    const project = join(home, 'proj');
    mkdirSync(join(project, '.claude'), { recursive: true });
    mkdirSync(join(home, '.claude'), { recursive: true });
    writeFileSync(join(project, '.claude', 'settings.json'), JSON.stringify({ autoMemoryDirectory: '/tmp/evil' }));
    expect(claudeMemoryDir(project, home, {})).toBe(join(home, '.claude', 'projects', sanitizeProjectPath(project), 'memory'));
    writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({ autoMemoryDirectory: '~/notes/memory' }));
    expect(claudeMemoryDir(project, home, {})).toBe(join(home, 'notes', 'memory'));
    writeFileSync(join(project, '.claude', 'settings.local.json'), JSON.stringify({ autoMemoryDirectory: '/srv/mem' }));
    expect(claudeMemoryDir(project, home, {})).toBe('/srv/mem');
    writeFileSync(join(project, '.claude', 'settings.local.json'), JSON.stringify({ autoMemoryDirectory: 'relative/mem' }));
    expect(claudeMemoryDir(project, home, {})).toBe(join(home, 'notes', 'memory'));
  });
  it("a project path over 200 characters: cut to 200 with Claude Code's hash suffix, or the directory that starts with that prefix", () => {
    const long = `/w/${'a'.repeat(240)}`;
    const name = sanitizeProjectPath(long);
    expect(name).toBe(`-w-${'a'.repeat(197)}-${Math.abs([...long].reduce((h, c) => ((h << 5) - h + c.charCodeAt(0)) | 0, 0)).toString(36)}`);
    expect(sanitizeProjectPath('/Users/foo/my_project.v2')).toBe('-Users-foo-my-project-v2');
    // the Bun-built CLI hashes differently: the directory with the same 200-character prefix is found
    const bun = join(home, '.claude', 'projects', `${name.slice(0, 200)}-bunhash`);
    mkdirSync(bun, { recursive: true });
    expect(claudeMemoryDir(long, home, {})).toBe(join(bun, 'memory'));
  });
});
