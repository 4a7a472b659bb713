// flush/flush.ts through `memctx flush`: the six fields written, sized, templated, from --from, --git,
// --transcript and --hook (cli.test.ts holds what the command prints).
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXTURES, removeDir, tempDir, stateOf } from '../../helpers/cli.js';
import { runCli } from '../../helpers/run.js';
import { initProject, readMemoryIn, sessionsIn } from '../../helpers/agent-project.js';
import { tiktoken } from '../../helpers/tiktoken.js';
import { builtInTemplate } from '../../../src/kernel/summary/templates.js';
import { parseBody } from '../../../src/kernel/summary/render.js';

const SESSION_NAME = /^sessions\/\d{4}-\d{2}-\d{2}T\d{6}-[a-z0-9-]+\.md$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

let project: string;
let mem: string;

beforeEach(async () => {
  ({ project, mem } = await initProject('memctx-flush-'));
});

afterEach(() => removeDir(project));

/** The files of one folder of the memory (sessions/ unless told), as memory paths. */
const sessions = (dir = 'sessions') => sessionsIn(mem, dir).map((f) => `${dir}/${f}`);
const readMemory = (rel: string) => readMemoryIn(mem, rel);

const tokensOf = (text: string) => tiktoken.o200k_base.encode(text, [], []).length;

describe('memctx flush from options', () => {
  it('writes the six-field session file, counts it exactly and re-indexes', async () => {
    const r = await runCli(['flush', '--goal', 'Move auth sessions to JWT', '--progress', 'Login issues JWTs', '--decision', 'RS256: keys rotate without redeploys', '--decision', 'Keep cookie login until mobile ships', '--blocker', 'Staging DB is down', '--next', 'Write the migration', '--changed', 'src/auth.ts'], { cwd: project });
    expect(r.code).toBe(0);
    const [path] = sessions();
    expect(path).toMatch(SESSION_NAME);
    expect(path).toMatch(/-move-auth-sessions-to-jwt\.md$/);
    const { text, file } = readMemory(path);
    expect(r.stdout).toBe(`wrote ${path} (${tokensOf(text)} tokens)\n`);
    expect(r.stderr).toBe('');
    expect(file.data.name).toMatch(/^Session \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    expect(file.data).toMatchObject({ description: 'Move auth sessions to JWT', type: 'project', kind: 'session' });
    expect(file.data.created).toMatch(ISO);
    expect(file.data.updated).toBe(file.data.created);
    expect('session_id' in file.data).toBe(false);
    expect(file.body).toBe(
      '\n## Goal\n\nMove auth sessions to JWT\n\n## Progress\n\n- Login issues JWTs\n\n## Decisions\n\n- RS256: keys rotate without redeploys\n- Keep cookie login until mobile ships\n\n## Changed Files\n\n- src/auth.ts\n\n## Blockers\n\n- Staging DB is down\n\n## Next Steps\n\n- Write the migration\n',
    );
    const index = readFileSync(join(mem, 'MEMORY.md'), 'utf8');
    expect(index).toContain(`## Sessions\n\n- [${file.data.name}](${path}) — Move auth sessions to JWT\n`);
    expect((await runCli(['index', '--check'], { cwd: project })).code).toBe(0);
  });

  it('writes empty fields as "none recorded" and lists them in a warning', async () => {
    const r = await runCli(['flush', '--goal', 'Only a goal', '--next', 'More'], { cwd: project });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('warning: written as "none recorded": Progress, Decisions, Changed Files, Blockers. Was there truly nothing? Give them with --progress, --decision, --changed/--git, --blocker, or in --from\n');
    const { file } = readMemory(sessions()[0]);
    expect(parseBody(builtInTemplate('session'), file.body)).toEqual({ goal: ['Only a goal'], progress: [], decisions: [], changedFiles: [], blockers: [], nextSteps: ['More'] });
    expect(file.body.match(/^none recorded$/gm)).toHaveLength(4);
  });

  it('refuses to write a summary with every field empty', async () => {
    const r = await runCli(['flush'], { cwd: project });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('nothing to record: every field is empty');
    expect(sessions()).toEqual([]);
  });

  it('stores a block over 50 lines as its first lines, error lines and a count', async () => {
    const log = Array.from({ length: 100 }, (_, i) => (i === 46 ? 'Error: SQLite migration failed at step 3/7.' : `migrating ${i + 1}`)).join('\n');
    const r = await runCli(['flush', '--goal', 'Migrate', '--progress', log], { cwd: project });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('memctx: Progress: a 100-line block stored as a summary (89 lines left out)\n');
    const values = parseBody(builtInTemplate('session'), readMemory(sessions()[0]).file.body);
    expect(values.progress[0].split('\n')).toEqual([
      ...Array.from({ length: 10 }, (_, i) => `migrating ${i + 1}`),
      '[error lines from the remaining 90:]',
      'Error: SQLite migration failed at step 3/7.',
      '[… 89 of 100 lines left out]',
    ]);
  });

  it('a value holding --- or frontmatter-like text parses back to the same fields', async () => {
    const goal = '---\nname: evil\ntype: user\n---\n## Progress';
    const decision = '---js\nrequire("child_process")\n---';
    const r = await runCli(['flush', '--goal', goal, '--decision', decision, '--next', 'kind: decision', '--blocker', '## Next Steps\n- fake item'], { cwd: project });
    expect(r.code).toBe(0);
    const { file } = readMemory(sessions()[0]);
    expect(file.data).toMatchObject({ name: expect.stringMatching(/^Session /), description: '---', type: 'project', kind: 'session' });
    expect(Object.keys(file.data)).toEqual(['name', 'description', 'type', 'kind', 'created', 'updated']);
    expect(parseBody(builtInTemplate('session'), file.body)).toEqual({ goal: [goal], progress: [], decisions: [decision], changedFiles: [], blockers: ['## Next Steps\n- fake item'], nextSteps: ['kind: decision'] });
    expect((await runCli(['show', sessions()[0], '--json'].slice(0, 2), { cwd: project })).code).toBe(0);
  });

  it('two flushes in the same second never overwrite each other', async () => {
    const a = await runCli(['flush', '--goal', 'Same goal', '--next', 'first'], { cwd: project });
    const b = await runCli(['flush', '--goal', 'Same goal', '--next', 'second'], { cwd: project });
    expect([a.code, b.code]).toEqual([0, 0]);
    const files = sessions();
    expect(files).toHaveLength(2);
    const nexts = files.map((f) => parseBody(builtInTemplate('session'), readMemory(f).file.body).nextSteps[0]).sort();
    expect(nexts).toEqual(['first', 'second']);
  });

  // In-process, so the 20 contend for the same lock file at once (test/commands/add/cli/concurrency.test.ts races separate processes).
  it('20 flushes at once: 20 files, all valid, MEMORY.md valid', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => runCli(['flush', '--goal', 'Parallel flush', '--next', `step ${i}`], { cwd: project })));
    expect(results.every((r) => /^wrote sessions\//.test(r.stdout))).toBe(true);
    const files = sessions();
    expect(files).toHaveLength(20);
    const nexts = files.map((f) => {
      const { file } = readMemory(f);
      expect(file.data.kind).toBe('session');
      return parseBody(builtInTemplate('session'), file.body).nextSteps[0];
    });
    expect(nexts.sort()).toEqual(Array.from({ length: 20 }, (_, i) => `step ${i}`).sort());
    expect((await runCli(['index', '--check'], { cwd: project })).code).toBe(0);
    const index = readFileSync(join(mem, 'MEMORY.md'), 'utf8');
    expect(index.match(/^- \[Session /gm)).toHaveLength(5);
    expect(index).toContain('- … and 15 older sessions: `memctx ls --kind session --unlisted`');
  }, 240_000);
});

describe('size discipline', () => {
  const many = Array.from({ length: 60 }, (_, i) => ['--changed', `src/feature${i}/handler${i}.ts`]).flat();

  it('over --max it shortens to the target, deterministically, and says what was cut', async () => {
    const args = ['flush', '--goal', 'Large session', '--decision', 'Keep the why', ...many];
    const r = await runCli(args, { cwd: project });
    expect(r.code).toBe(0);
    const [path] = sessions();
    const { text, file } = readMemory(path);
    const tokens = tokensOf(text);
    expect(tokens).toBeLessThanOrEqual(500);
    const cut = /^memctx: shortened from (\d+) to (\d+) tokens \(over the 650 maximum; target 500\): Changed Files: grouped by folder into 1 line \(60 before\)$/m.exec(r.stderr);
    expect(cut).not.toBeNull();
    expect(Number(cut![1])).toBeGreaterThan(650);
    expect(Number(cut![2])).toBe(tokens);
    const values = parseBody(builtInTemplate('session'), file.body);
    // every file covered: grouped by folder with its count, nothing dropped
    expect(values.changedFiles).toEqual(['src/ (60 files)']);
    expect(values.decisions).toEqual(['Keep the why']);
    const again = await runCli(['--json', ...args, '--dry-run'], { cwd: project });
    expect(JSON.parse(again.stdout).fields).toEqual(values);
  });

  it('--strict over --max exits 1 and writes nothing', async () => {
    const r = await runCli(['flush', '--strict', '--goal', 'Large session', ...many], { cwd: project });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/error: the summary is \d+ tokens, over the maximum of 650; --strict: nothing written/);
    expect(sessions()).toEqual([]);
  });

  it('--strict under --max writes; --target and --max are checked', async () => {
    expect((await runCli(['flush', '--strict', '--goal', 'Small'], { cwd: project })).code).toBe(0);
    const bad = await runCli(['flush', '--goal', 'x', '--target', '700', '--max', '650'], { cwd: project });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--target (700) must not be over --max (650)');
    expect((await runCli(['flush', '--goal', 'x', '--max', 'lots'], { cwd: project })).code).toBe(2);
  });

  it('other bad options: --field without =, an unknown --encoding, --hook with --from -', async () => {
    const field = await runCli(['flush', '--goal', 'x', '--field', 'rationale'], { cwd: project });
    expect(field.code).toBe(2);
    expect(field.stderr).toContain('--field must be KEY=VALUE, got "rationale"');
    const encoding = await runCli(['flush', '--goal', 'x', '--encoding', 'gpt2'], { cwd: project });
    expect(encoding.code).toBe(2);
    expect(encoding.stderr).toContain('--encoding must be one of o200k_base, cl100k_base, got "gpt2"');
    const hook = await runCli(['flush', '--hook', '--from', '-'], { cwd: project, input: '{}' });
    expect(hook.code).toBe(0);
    expect(readFileSync(join(stateOf(mem), 'flush.log'), 'utf8')).toContain('hook error: --hook reads the hook JSON on stdin, so --from - cannot be used with it');
    expect(sessions()).toEqual([]);
  });

  it('cl100k_base counts with that encoding', async () => {
    const r = await runCli(['--json', 'flush', '--goal', 'Count me', '--encoding', 'cl100k_base', '--dry-run'], { cwd: project });
    expect(r.code).toBe(0);
    const record = JSON.parse(r.stdout);
    expect(record.tokens).toBe(tiktoken.cl100k_base.encode(record.text, [], []).length);
  });
});

describe('--from', () => {
  it('reads YAML, merges it before the options, and warns about unknown keys', async () => {
    writeFileSync(join(project, 'notes.yaml'), 'goal: From the file\nprogress:\n  - file progress\nchanged_files: [a.ts]\nmood: great\n');
    const r = await runCli(['flush', '--from', 'notes.yaml', '--progress', 'option progress', '--next', 'n'], { cwd: project });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('warning: ignored "mood" in notes.yaml (line 5): the session template has no such field (its fields: goal, progress, decisions, changedFiles, blockers, nextSteps)\n');
    const values = parseBody(builtInTemplate('session'), readMemory(sessions()[0]).file.body);
    expect(values).toEqual({ goal: ['From the file'], progress: ['file progress', 'option progress'], decisions: [], changedFiles: ['a.ts'], blockers: [], nextSteps: ['n'] });
  });

  it('reads JSON from stdin', async () => {
    const r = await runCli(['flush', '--from', '-'], { cwd: project, input: JSON.stringify({ goal: 'From stdin', nextSteps: ['a', 'b'], blockers: 'one' }) });
    expect(r.code).toBe(0);
    expect(parseBody(builtInTemplate('session'), readMemory(sessions()[0]).file.body)).toMatchObject({ goal: ['From stdin'], blockers: ['one'], nextSteps: ['a', 'b'] });
  });

  it('malformed JSON: exit 2 with the file and line, nothing written', async () => {
    writeFileSync(join(project, 'bad.json'), '{\n  "goal": "x",\n  "progress": ["a", "b",]\n}\n');
    const r = await runCli(['flush', '--from', 'bad.json'], { cwd: project });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("memctx: error: bad.json:3: invalid JSON: Unexpected token ']'\n  hint: fix the JSON syntax (keys and strings in double quotes, no trailing commas)\n");
    expect(sessions()).toEqual([]);
  });

  it('malformed YAML: exit 2 with the file and line', async () => {
    writeFileSync(join(project, 'bad.yaml'), 'goal: x\nprogress: [a\nnextSteps: b\n');
    const r = await runCli(['flush', '--from', 'bad.yaml'], { cwd: project });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^memctx: error: bad\.yaml:3: invalid YAML: /);
    writeFileSync(join(project, 'nested.yml'), 'goal: x\ndecisions:\n  first: a\n');
    const nested = await runCli(['flush', '--from', 'nested.yml'], { cwd: project });
    expect(nested.code).toBe(2);
    expect(nested.stderr).toContain('memctx: error: nested.yml:3: `decisions` must be a string or a list of strings');
    expect(sessions()).toEqual([]);
  });

  it('a --from file that does not exist: exit 2 naming it', async () => {
    const r = await runCli(['flush', '--from', 'missing.yaml'], { cwd: project });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('memctx: error: missing.yaml: no such file');
  });
});

describe('templates', () => {
  it('decision: DEC-YYYY-MM-DD-NNN, next free number for the day, in decisions/', async () => {
    const first = await runCli(['flush', '-t', 'decision', '--decision', 'Use RS256', '--field', 'rationale=keys rotate', '--field', 'importance=8', '--field', 'tags=auth, security'], { cwd: project });
    expect(first.code).toBe(0);
    const second = await runCli(['flush', '-t', 'decision', '--field', 'decision=Drop cookie sessions'], { cwd: project });
    expect(second.code).toBe(0);
    const files = sessions('decisions');
    expect(files).toHaveLength(2);
    expect(files[0]).toMatch(/^decisions\/DEC-\d{4}-\d{2}-\d{2}-001-use-rs256\.md$/);
    expect(files[1]).toMatch(/^decisions\/DEC-\d{4}-\d{2}-\d{2}-002-drop-cookie-sessions\.md$/);
    const { file } = readMemory(files[0]);
    const id = files[0].slice('decisions/'.length, 'decisions/'.length + 18);
    expect(file.data).toMatchObject({ name: id, id, description: 'Use RS256', type: 'project', kind: 'decision', importance: 8, tags: ['auth', 'security'] });
    expect(file.body.startsWith(`\n**ID:** ${id}\n\n## Decision\n\nUse RS256\n\n## Rationale\n\nkeys rotate\n\n## Alternatives Considered\n\nnone recorded\n`)).toBe(true);
    expect(first.stderr).toContain('warning: written as "none recorded": Alternatives Considered, Expected Impact, Validation Criteria, Context.');
    // Any template with an {{id}} placeholder takes the next number too, and records it.
    writeFileSync(join(mem, 'templates', 'adr.md'), '# {{id}}\n\n{{goal}}\n');
    expect((await runCli(['flush', '-t', 'adr', '--goal', 'Adopt ADRs'], { cwd: project })).code).toBe(0);
    const adr = readMemory(sessions()[0]);
    expect(adr.file.data.id).toBe(`${id.slice(0, 15)}003`);
    expect(adr.file.body).toBe(`\n# ${id.slice(0, 15)}003\n\nAdopt ADRs\n`);
  });

  it('notes: the five notes fields; changed files fill Files and Functions', async () => {
    const r = await runCli(['flush', '-t', 'notes', '--field', 'current_state=Halfway', '--changed', 'src/a.ts', '--progress', 'step one'], { cwd: project });
    expect(r.code).toBe(0);
    const { file } = readMemory(sessions()[0]);
    expect(file.body).toBe('\n## Current State\n\nHalfway\n\n## Files and Functions\n\n- src/a.ts\n\n## Errors and Corrections\n\nnone recorded\n\n## Key Results\n\nnone recorded\n\n## Worklog\n\n- step one\n');
    expect(parseBody(builtInTemplate('notes'), file.body)).toEqual({ currentState: ['Halfway'], filesAndFunctions: ['src/a.ts'], errorsAndCorrections: [], keyResults: [], worklog: ['step one'] });
  });

  it('a user template in templates/NAME.md: placeholders filled, frontmatter kept', async () => {
    writeFileSync(join(mem, 'templates', 'review.md'), '---\ntags: [review]\ndescription: "Review: {{goal}}"\n---\n# Review on {{date}}\n\n## Goal\n\n{{goal}}\n\n## Risk\n\n{{risk}}\n\nOwner: {{owner}}\n');
    const r = await runCli(['flush', '-t', 'review', '--goal', 'Check auth', '--field', 'risk=token leak', '--field', 'risk=clock skew', '--field', 'owner=sam'], { cwd: project });
    expect(r.code).toBe(0);
    const { file } = readMemory(sessions()[0]);
    expect(file.data).toMatchObject({ description: 'Review: Check auth', kind: 'session', type: 'project', tags: ['review'] });
    expect(file.body).toMatch(/^\n# Review on \d{4}-\d{2}-\d{2}\n\n## Goal\n\nCheck auth\n\n## Risk\n\n- token leak\n- clock skew\n\nOwner: sam\n$/);
  });

  it('a placeholder with no value is an error naming the template and line', async () => {
    writeFileSync(join(mem, 'templates', 'review.md'), '---\ntags: [review]\n---\n## Goal\n\n{{goal}}\n\n## Risk\n\n{{risk}}\n');
    const r = await runCli(['flush', '-t', 'review', '--goal', 'Check auth'], { cwd: project });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('memctx: error: templates/review.md:10: template templates/review.md: placeholder {{risk}} has no value\n  hint: give it with --field risk=VALUE or a "risk" key in --from\n');
    expect(sessions()).toEqual([]);
  });

  it('a malformed placeholder is an error with its line', async () => {
    writeFileSync(join(mem, 'templates', 'broken.md'), '## Goal\n\n{{goal}}\n\nsee {{ not closed\n');
    const r = await runCli(['flush', '-t', 'broken', '--goal', 'x'], { cwd: project });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('memctx: error: templates/broken.md:5: template templates/broken.md: `{{` is not closed on its line');
  });

  it('an unknown template is an error listing the ones there are', async () => {
    writeFileSync(join(mem, 'templates', 'mine.md'), '{{goal}}\n');
    const r = await runCli(['flush', '-t', 'retro', '--goal', 'x'], { cwd: project });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('memctx: error: unknown template "retro"\n  hint: use one of: session, decision, notes, mine; or create templates/retro.md in the memory directory with {{field}} placeholders\n');
    expect((await runCli(['flush', '-t', '../MEMORY', '--goal', 'x'], { cwd: project })).code).toBe(2);
  });
});

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, { cwd, stdio: 'ignore', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });
}

describe('--git', () => {
  it('lists changed files with one-line summaries, leaving out the memory directory', async () => {
    git(project, 'init', '-q');
    mkdirSync(join(project, 'src'));
    writeFileSync(join(project, 'src', 'auth.ts'), '/**\n * Auth handler with JWT validation.\n */\nimport { x } from "y";\n\nexport function validateToken() {}\nexport async function refreshToken() {}\nexport class Session {}\nexport const logout = () => {};\nfunction local() {}\nexport function sixth() {}\n');
    writeFileSync(join(project, 'old.py'), '"""Old module."""\n');
    writeFileSync(join(project, 'keep.md'), '# Keep\n');
    git(project, 'add', '-A');
    git(project, 'commit', '-qm', 'one');
    writeFileSync(join(project, 'src', 'auth.ts'), `${readFileSync(join(project, 'src', 'auth.ts'), 'utf8')}// more\n`);
    writeFileSync(join(project, 'db.py'), '"""Database migrations, step by step."""\n\ndef migrate():\n    pass\n\nclass Runner:\n    pass\n');
    git(project, 'rm', '-q', 'old.py');
    writeFileSync(join(project, 'data.bin'), Buffer.from([0, 1, 2]));
    const r = await runCli(['flush', '--goal', 'Git session', '--git'], { cwd: project });
    expect(r.code).toBe(0);
    const values = parseBody(builtInTemplate('session'), readMemory(sessions()[0]).file.body);
    expect(values.changedFiles).toEqual([
      'data.bin (new)',
      'db.py (new) — Database migrations, step by step (migrate, Runner)',
      'old.py (deleted)',
      'src/auth.ts — Auth handler with JWT validation (validateToken, refreshToken, Session, logout, local)',
    ]);
  });

  it('--since adds what changed since a revision', async () => {
    git(project, 'init', '-q');
    writeFileSync(join(project, 'a.ts'), '// A.\nexport function a() {}\n');
    git(project, 'add', 'a.ts');
    git(project, 'commit', '-qm', 'one');
    writeFileSync(join(project, 'b.ts'), '// B.\nexport function b() {}\n');
    git(project, 'add', 'b.ts');
    git(project, 'commit', '-qm', 'two');
    const r = await runCli(['flush', '--goal', 'Since', '--since', 'HEAD~1'], { cwd: project });
    expect(r.code).toBe(0);
    expect(parseBody(builtInTemplate('session'), readMemory(sessions()[0]).file.body).changedFiles).toEqual(['b.ts (new) — B (b)']);
    const bad = await runCli(['flush', '--goal', 'Since', '--since', 'no-such-rev'], { cwd: project });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--since: unknown revision "no-such-rev"');
  });

  it('--git --since with an unknown revision hints the default branch this repository has (master here, none in trunk)', async () => {
    git(project, 'init', '-q', '-b', 'master');
    writeFileSync(join(project, 'a.ts'), '// A.\n');
    git(project, 'add', 'a.ts');
    git(project, 'commit', '-qm', 'one');
    const bad = await runCli(['flush', '--goal', 'x', '--git', '--since', 'nosuch'], { cwd: project });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(`memctx: error: --since: unknown revision "nosuch" in ${project}\n  hint: give a commit, branch or tag that exists here, such as HEAD~3 or master\n`);
    git(project, 'branch', '-m', 'master', 'trunk');
    const none = await runCli(['flush', '--goal', 'x', '--git', '--since', 'nosuch'], { cwd: project });
    expect(none.stderr).toContain('  hint: give a commit, branch or tag that exists here, such as HEAD~3\n');
    expect(sessions()).toEqual([]);
  });

  it('no git repository: a clear error, exit 2, nothing written', async () => {
    const r = await runCli(['flush', '--goal', 'x', '--git'], { cwd: project });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`memctx: error: --git: ${project} is not inside a git repository\n  hint: run memctx from inside the repository, or drop --git and list files with --changed\n`);
    expect(sessions()).toEqual([]);
  });
});

/** Claude Code JSONL lines whose tool calls write into `dir`. */
function claudeTranscript(dir: string): string {
  const line = (o: object) => JSON.stringify({ sessionId: 'abc', cwd: dir, ...o });
  return [
    line({ type: 'user', message: { role: 'user', content: 'Add rate limiting to the API\nsecond line' } }),
    line({ type: 'assistant', message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'DECISION: token bucket per API key, because bursts are allowed' }, { type: 'tool_use', id: 't1', name: 'Write', input: { file_path: join(dir, 'src', 'limit.ts'), content: 'x' } }] } }),
    line({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] } }),
    line({ type: 'assistant', message: { id: 'm2', role: 'assistant', content: [{ type: 'tool_use', id: 't2', name: 'Edit', input: { file_path: join(dir, 'src', 'failed.ts') } }] } }),
    line({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't2', content: 'not found', is_error: true }] } }),
    line({ type: 'assistant', isSidechain: true, message: { id: 'm3', role: 'assistant', content: [{ type: 'text', text: 'BLOCKER: subagent noise' }] } }),
    line({ type: 'assistant', message: { id: 'm4', role: 'assistant', content: [{ type: 'text', text: 'BLOCKER: Redis is not provisioned\nTODO: load-test the limiter\nNext steps:\n- wire the limiter into the gateway' }] } }),
  ].join('\n');
}

describe('--transcript', () => {
  it('takes marked lines, the first request as goal and the files tool calls wrote', async () => {
    mkdirSync(join(project, 'src'));
    writeFileSync(join(project, 'src', 'limit.ts'), '/** Token-bucket rate limiter. */\nexport class Limiter {}\n');
    writeFileSync(join(project, 'session.jsonl'), claudeTranscript(project));
    const r = await runCli(['flush', '--transcript', 'session.jsonl', '--progress', 'limiter written'], { cwd: project });
    expect(r.code).toBe(0);
    expect(parseBody(builtInTemplate('session'), readMemory(sessions()[0]).file.body)).toEqual({
      goal: ['Add rate limiting to the API'],
      progress: ['limiter written'],
      decisions: ['token bucket per API key, because bursts are allowed'],
      changedFiles: ['src/limit.ts — Token-bucket rate limiter (Limiter)'],
      // the failed Edit was never followed by a successful write of that file
      blockers: ['Redis is not provisioned', '`Edit src/failed.ts` failed: not found'],
      nextSteps: ['load-test the limiter', 'wire the limiter into the gateway'],
    });
  });

  it('reads the shipped Claude Code fixture', async () => {
    const r = await runCli(['--json', 'flush', '--transcript', join(FIXTURES, 'flush-transcripts', 'session.jsonl'), '--dry-run'], { cwd: project });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).fields).toEqual({
      goal: ['Move the auth module from cookie sessions to JWT'],
      progress: ['login issues a JWT and the middleware verifies it'],
      decisions: ['Use RS256 signing so keys rotate without redeploying services'],
      // relative to the session's own working directory (/home/dev/shop), not the flush's
      changedFiles: ['src/auth/jwt.ts', 'src/middleware/auth.ts'],
      blockers: ['the staging database is down, so the migration cannot be tested', '`Edit src/auth/session.ts` failed: String to replace not found in file.'],
      nextSteps: ['rotate refresh tokens on every use', 'write the session-table migration', 'deploy to staging once the database is back'],
    });
  });

  it('an unreadable transcript: still writes what the options gave, and says so', async () => {
    const r = await runCli(['flush', '--goal', 'Keep going', '--transcript', 'missing.jsonl'], { cwd: project });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('warning: cannot read the transcript missing.jsonl (no such file); the summary holds only what the other inputs gave\n');
    expect(parseBody(builtInTemplate('session'), readMemory(sessions()[0]).file.body).goal).toEqual(['Keep going']);
    writeFileSync(join(project, 'binary.jsonl'), Buffer.from([0x7b, 0, 0x7d]));
    const bin = await runCli(['flush', '--goal', 'Binary', '--transcript', 'binary.jsonl'], { cwd: project });
    expect(bin.code).toBe(0);
    expect(bin.stderr).toContain('warning: cannot read the transcript binary.jsonl (looks like a binary file');
    if (process.getuid?.() !== 0) {
      writeFileSync(join(project, 'locked.jsonl'), '{}');
      chmodSync(join(project, 'locked.jsonl'), 0o000);
      const locked = await runCli(['flush', '--goal', 'Locked', '--transcript', 'locked.jsonl'], { cwd: project });
      expect(locked.code).toBe(0);
      expect(locked.stderr).toContain('cannot read the transcript locked.jsonl (cannot read the file (EACCES))');
    }
    expect(sessions().length).toBeGreaterThanOrEqual(2);
  });
});

describe('--hook', () => {
  const hookInput = (o: object) => JSON.stringify({ session_id: 'sess-1', transcript_path: join(project, 'session.jsonl'), cwd: project, hook_event_name: 'SessionEnd', reason: 'clear', ...o });
  const log = () => readFileSync(join(stateOf(mem), 'flush.log'), 'utf8');

  it('SessionEnd: writes the session from the transcript, with session_id, and logs it', async () => {
    writeFileSync(join(project, 'session.jsonl'), claudeTranscript(project));
    const elsewhere = tempDir('memctx-flush-cwd-');
    try {
      const r = await runCli(['flush', '--hook'], { cwd: elsewhere, input: hookInput({}) });
      expect(r.code).toBe(0);
      const [path] = sessions();
      const { file } = readMemory(path);
      expect(file.data).toMatchObject({ description: 'Add rate limiting to the API', kind: 'session', session_id: 'sess-1', hook_event: 'SessionEnd' });
      expect(log()).toMatch(new RegExp(`^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z SessionEnd\\(clear\\) session=sess-1 wrote ${path} \\(\\d+ tokens\\); warning: written as "none recorded": Progress\\.`));
    } finally {
      removeDir(elsewhere);
    }
  });

  it('a later hook run for the same session replaces its file, keeping created', async () => {
    writeFileSync(join(project, 'session.jsonl'), claudeTranscript(project));
    expect((await runCli(['flush', '--hook'], { cwd: project, input: hookInput({ hook_event_name: 'PreCompact', reason: undefined, trigger: 'auto' }) })).code).toBe(0);
    const [path] = sessions();
    const before = readMemory(path).file.data;
    writeFileSync(join(project, 'session.jsonl'), `${claudeTranscript(project)}\n${JSON.stringify({ type: 'assistant', message: { id: 'm9', role: 'assistant', content: [{ type: 'text', text: 'DECISION: limit per tenant too' }] } })}\n`);
    const r = await runCli(['flush', '--hook'], { cwd: project, input: hookInput({}) });
    expect(r.code).toBe(0);
    expect(sessions()).toEqual([path]);
    const after = readMemory(path).file;
    expect(after.data.created).toBe(before.created);
    expect(after.data.hook_event).toBe('SessionEnd');
    expect(parseBody(builtInTemplate('session'), after.body).decisions).toEqual(['token bucket per API key, because bursts are allowed', 'limit per tenant too']);
    expect(log()).toContain(`SessionEnd(clear) session=sess-1 updated ${path}`);
    // Another session gets its own file.
    expect((await runCli(['flush', '--hook'], { cwd: project, input: hookInput({ session_id: 'sess-2' }) })).code).toBe(0);
    expect(sessions()).toHaveLength(2);
  });

  it('garbage on stdin: exit 0, logged, nothing written', async () => {
    const r = await runCli(['flush', '--hook'], { cwd: project, input: 'not json {' });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^memctx flush --hook: hook input is not JSON \(Unexpected token 'o'/);
    expect(log()).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z hook error: hook input is not JSON/);
    expect(sessions()).toEqual([]);
    expect((await runCli(['flush', '--hook'], { cwd: project, input: '' })).code).toBe(0);
    expect(log()).toContain('hook error: hook input is empty');
  });

  it('an unreadable transcript and nothing else: exit 0, logged as an error', async () => {
    writeFileSync(join(project, 'locked.jsonl'), '');
    chmodSync(join(project, 'locked.jsonl'), 0o000);
    const r = await runCli(['flush', '--hook'], { cwd: project, input: hookInput({ transcript_path: join(project, 'locked.jsonl') }) });
    expect(r.code).toBe(0);
    // root reads any file: then the transcript is empty, which is an empty session.
    expect(log()).toMatch(process.getuid?.() === 0 ? /SessionEnd\(clear\) session=sess-1 skipped: empty session, nothing to record\n$/ : /SessionEnd\(clear\) session=sess-1 error: nothing to record: every field is empty/);
    expect(sessions()).toEqual([]);
  });

  it('an empty session (claude mcp list: a transcript never written): a skip in flush.log, not an error', async () => {
    const r = await runCli(['flush', '--hook'], { cwd: project, input: hookInput({ transcript_path: join(project, 'gone.jsonl'), reason: 'other' }) });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('memctx flush --hook: skipped: empty session, nothing to record (no transcript was written)\n');
    expect(log()).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z SessionEnd\(other\) session=sess-1 skipped: empty session, nothing to record \(no transcript was written\)\n$/);
    expect(log()).not.toContain('error');
    expect(sessions()).toEqual([]);
    writeFileSync(join(project, 'empty.jsonl'), '');
    await runCli(['flush', '--hook'], { cwd: project, input: hookInput({ transcript_path: join(project, 'empty.jsonl') }) });
    expect(log()).toContain('SessionEnd(clear) session=sess-1 skipped: empty session, nothing to record\n');
  });

  it('a relative transcript_path is read from the hook cwd, not taken for a transcript never written', async () => {
    writeFileSync(join(project, 'session.jsonl'), claudeTranscript(project));
    const elsewhere = tempDir('memctx-flush-cwd-');
    try {
      const r = await runCli(['flush', '--hook'], { cwd: elsewhere, input: hookInput({ transcript_path: 'session.jsonl' }) });
      expect(r.code).toBe(0);
      expect(log()).toMatch(/SessionEnd\(clear\) session=sess-1 wrote sessions\//);
      expect(sessions()).toHaveLength(1);
    } finally {
      removeDir(elsewhere);
    }
  });

  it('a hook cwd with no memory directory: exit 0 and says so on stderr', async () => {
    const bare = tempDir('memctx-flush-bare-');
    try {
      const r = await runCli(['flush', '--hook'], { cwd: bare, input: hookInput({ cwd: bare }) });
      expect(r.code).toBe(0);
      expect(r.stderr).toContain('memctx flush --hook: no .memory/ directory in');
      expect(r.stderr).toContain('(not logged: no memory directory found)');
    } finally {
      removeDir(bare);
    }
  });

  it('problems that would fail a normal flush still exit 0 in hook mode', async () => {
    writeFileSync(join(project, 'session.jsonl'), claudeTranscript(project));
    const r = await runCli(['flush', '--hook', '--git', '--strict', '--max', '5', '--target', '5'], { cwd: project, input: hookInput({}) });
    expect(r.code).toBe(0);
    expect(log()).toContain('error: --git: ');
    expect(sessions()).toEqual([]);
  });
});
