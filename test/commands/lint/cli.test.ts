import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES, copyFixture, removeDir, tempDir, stateOf } from '../../helpers/cli.js';
import { runCli } from '../../helpers/run.js';

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) removeDir(dirs.pop()!);
});

function workspace(): { root: string; mem: string } {
  const root = tempDir('memctx-lint-');
  dirs.push(root);
  const mem = join(root, '.memory');
  mkdirSync(mem);
  return { root, mem };
}

function write(dir: string, rel: string, text: string | Buffer): void {
  mkdirSync(dirname(join(dir, rel)), { recursive: true });
  writeFileSync(join(dir, rel), text);
}

const doc = (fields: Record<string, string | number>, body = 'Body text.\n') => `---\n${Object.entries(fields).map(([k, v]) => `${k}: ${v}`).join('\n')}\n---\n${body}`;
const VALID = { name: 'Auth refactor', description: 'Backend auth migration status', type: 'project', updated: '2026-11-20' };
// Built at run time so no credential-shaped string sits in the repository.
const TOKEN = ['ghp', '_', 'wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx'].join('');

/** A tidy memory directory: files plus the MEMORY.md `memctx index` writes. */
async function tidy(files: Record<string, string>): Promise<{ root: string; mem: string }> {
  const ws = workspace();
  for (const [rel, text] of Object.entries(files)) write(ws.mem, rel, text);
  expect((await runCli(['index'], { cwd: ws.root })).code).toBe(0);
  return ws;
}

describe('memctx lint on broken files', () => {
  it('reports every broken file kind, each under its rule, and keeps going', async () => {
    const dir = copyFixture('lint-broken');
    dirs.push(dirname(dir));
    const res = await runCli(['--dir', dir, 'lint', '--format', 'json'], { cwd: dirname(dir) });
    expect(res.code).toBe(1);
    const report = JSON.parse(res.stdout) as { filePath: string; messages: { ruleId: string; line?: number; message: string }[] }[];
    const byFile = Object.fromEntries(report.map((r) => [r.filePath.slice(dir.length + 1), r.messages.map((m) => m.ruleId)]));
    expect(byFile).toEqual({
      'MEMORY.md': ['index/stale'],
      'alias-bomb.md': ['frontmatter/parse-error'],
      'binary.md': ['frontmatter/parse-error'],
      'coffee-frontmatter.md': ['frontmatter/js-engine'],
      'empty.md': ['frontmatter/required'],
      'good.md': [],
      'invalid-utf8.md': ['frontmatter/parse-error'],
      'js-frontmatter.md': ['frontmatter/js-engine'],
      'malformed-yaml.md': ['frontmatter/parse-error'],
      'proto.md': ['frontmatter/parse-error'],
      'unterminated.md': ['frontmatter/parse-error'],
    });
    const messages = Object.fromEntries(report.map((r) => [r.filePath.slice(dir.length + 1), r.messages[0]?.message ?? '']));
    expect(messages['alias-bomb.md']).toContain('alias bomb');
    expect(messages['proto.md']).toContain('`__proto__` is not allowed');
    expect(messages['binary.md']).toContain('binary data');
    expect(messages['invalid-utf8.md']).toContain('invalid UTF-8');
    expect(messages['unterminated.md']).toContain('never closed');
    expect(messages['malformed-yaml.md']).toContain('invalid YAML');
    // The ---js and ---coffee blocks would write PWNED into the working directory if evaluated.
    expect(existsSync(join(dirname(dir), 'PWNED'))).toBe(false);
    for (const format of ['stylish', 'github', 'sarif']) {
      const other = await runCli(['--dir', dir, 'lint', '--format', format], { cwd: dirname(dir) });
      expect(other.code).toBe(1);
      expect(other.stdout).toContain('unterminated.md');
    }
  });
});

describe('memctx lint on the shared broken fixtures', () => {
  // fixtures/broken/ comes from the foundation branch; this runs once it is merged.
  it.skipIf(!existsSync(join(FIXTURES, 'broken')))('checks every file of fixtures/broken/ and none stops the run', async () => {
    const dir = copyFixture('broken');
    dirs.push(dirname(dir));
    const res = await runCli(['--dir', dir, 'lint', '--format', 'json'], { cwd: dirname(dir) });
    expect(res.code).toBe(1);
    expect(res.stderr).not.toContain('unexpected failure');
    const checked = (JSON.parse(res.stdout) as { filePath: string }[]).map((r) => r.filePath.slice(dir.length + 1));
    for (const name of readdirSync(dir).filter((f) => f.endsWith('.md'))) expect(checked).toContain(name);
  });
});

describe('memctx lint: an unreadable MEMORY.md', () => {
  it('is reported as a parse error and the memory files are still checked', async () => {
    const ws = await tidy({ 'project_auth.md': doc({ ...VALID, type: 'nonsense' }) });
    write(ws.mem, 'MEMORY.md', Buffer.from([0x23, 0x20, 0xff, 0xfe, 0x0a]));
    const res = await runCli(['lint', '--format', 'json', '--fix'], { cwd: ws.root });
    expect(res.code).toBe(1);
    const report = JSON.parse(res.stdout) as { filePath: string; messages: { ruleId: string; message: string }[] }[];
    expect(report.map((r) => [r.filePath.split('/').pop(), r.messages.map((m) => m.ruleId)])).toEqual([
      ['MEMORY.md', ['frontmatter/parse-error']],
      ['project_auth.md', ['frontmatter/invalid-type']],
    ]);
    expect(report[0].messages[0].message).toBe('invalid UTF-8 (byte offset 2); re-save the file as UTF-8');
    expect(readFileSync(join(ws.mem, 'MEMORY.md'))).toEqual(Buffer.from([0x23, 0x20, 0xff, 0xfe, 0x0a]));
  });
});

describe('memctx lint: secrets', () => {
  it('finds a token and never prints it in full, in any format', async () => {
    const ws = await tidy({ 'project_api.md': doc(VALID, `Call the API with ${TOKEN} as the bearer.\n`) });
    write(ws.mem, 'broken.md', `---\nname: [x\n---\n${TOKEN}\n`);
    for (const format of ['stylish', 'json', 'github', 'sarif']) {
      const res = await runCli(['lint', '--format', format], { cwd: ws.root });
      expect(res.code).toBe(1);
      expect(res.stdout).toContain('security/secret');
      expect(res.stdout).toContain('github token ghp_******** (40 characters)');
      expect(res.stdout + res.stderr).not.toContain(TOKEN.slice(4, 12));
    }
    const json = JSON.parse((await runCli(['lint', '--format', 'json'], { cwd: ws.root })).stdout) as { filePath: string; messages: { ruleId: string; line: number; column: number }[] }[];
    const secrets = json.flatMap((r) => r.messages.filter((m) => m.ruleId === 'security/secret').map((m) => `${r.filePath.split('/').pop()}:${m.line}:${m.column}`));
    expect(secrets).toEqual(['broken.md:4:1', 'project_api.md:7:19']);
  });
});

describe('memctx lint: exit codes, --fix, --max-warnings', () => {
  it('exit 0 and a clean line on a tidy directory', async () => {
    const ws = await tidy({ 'project_auth.md': doc(VALID), 'user_prefs.md': doc({ ...VALID, name: 'Prefs', type: 'user' }) });
    const res = await runCli(['lint'], { cwd: ws.root });
    expect(res).toMatchObject({ code: 0, stdout: '✔ no problems in 2 memory files\n' });
  });

  it('--fix rebuilds MEMORY.md and adds a missing updated, atomically, and says what changed', async () => {
    const ws = await tidy({ 'project_auth.md': doc(VALID) });
    const { updated: _u, ...noDate } = VALID;
    write(ws.mem, 'user_prefs.md', doc({ ...noDate, name: 'Prefs', type: 'user' }));
    const before = await runCli(['lint', '--format', 'json'], { cwd: ws.root });
    expect(before.code).toBe(1);
    expect(before.stdout).toContain('index/stale');
    expect(before.stdout).toContain('frontmatter/missing-updated');
    const res = await runCli(['lint', '--fix'], { cwd: ws.root });
    expect(res.code).toBe(0);
    const out = res.stdout.split('\n');
    expect(out[0]).toMatch(/^fixed: user_prefs\.md: set updated to \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(out[1]).toBe('fixed: MEMORY.md: rebuilt (2 files)');
    expect(out[2]).toBe('✔ no problems in 2 memory files');
    expect(readFileSync(join(ws.mem, 'user_prefs.md'), 'utf8')).toMatch(/^---\nname: Prefs\ndescription: Backend auth migration status\ntype: user\nupdated: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n---\nBody text\.\n$/);
    expect((await runCli(['index', '--check'], { cwd: ws.root })).code).toBe(0);
    expect(existsSync(join(stateOf(ws.mem), 'lock'))).toBe(false);
    expect((await runCli(['lint', '--fix'], { cwd: ws.root })).stdout).toBe('nothing to fix\n✔ no problems in 2 memory files\n');
  });

  it('--fix with a machine format reports changes on stderr and keeps stdout parseable', async () => {
    const ws = await tidy({ 'project_auth.md': doc(VALID) });
    write(ws.mem, 'MEMORY.md', '# Memory\n');
    const res = await runCli(['lint', '--fix', '--format', 'json'], { cwd: ws.root });
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('fixed: MEMORY.md: rebuilt (1 files)\n');
    expect(JSON.parse(res.stdout).every((r: { messages: unknown[] }) => r.messages.length === 0)).toBe(true);
  });

  it('warnings only: exit 0; over --max-warnings: exit 1; a bad value: exit 2', async () => {
    const ws = await tidy({ 'project_auth.md': doc(VALID, 'Iteration 3 passed at 14:32.\nFixed in commit 3f2a9c1d.\n') });
    const res = await runCli(['lint'], { cwd: ws.root });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('✖ 2 problems (0 errors, 2 warnings)');
    expect((await runCli(['lint', '--max-warnings', '2'], { cwd: ws.root })).code).toBe(0);
    const over = await runCli(['lint', '--max-warnings', '1'], { cwd: ws.root });
    expect(over.code).toBe(1);
    expect(over.stderr).toBe('memctx lint: 2 warnings, more than --max-warnings 1\n');
    expect((await runCli(['lint', '--max-warnings', 'many'], { cwd: ws.root })).code).toBe(2);
    expect(await runCli(['lint', '--format', 'xml'], { cwd: ws.root })).toMatchObject({ code: 2 });
    expect((await runCli(['lint', '--format', 'xml'], { cwd: ws.root })).stderr).toContain('--format must be one of stylish, json, github, sarif, got "xml"');
    const quiet = await runCli(['--quiet', 'lint'], { cwd: ws.root });
    expect(quiet).toMatchObject({ code: 0, stdout: '' });
  });

  it('--json means --format json', async () => {
    const ws = await tidy({ 'project_auth.md': doc(VALID) });
    expect(JSON.parse((await runCli(['--json', 'lint'], { cwd: ws.root })).stdout).map((r: { filePath: string }) => r.filePath.split('/').pop())).toEqual(['MEMORY.md', 'project_auth.md']);
  });

  it('broken references are checked against git, ignored directories included', async () => {
    const ws = await tidy({ 'project_auth.md': doc(VALID, 'See src/auth.ts, src/old.ts, dist/cli.js and `docs/`.\n') });
    write(ws.root, 'src/auth.ts', 'x');
    write(ws.root, 'src/old.ts', 'x');
    write(ws.root, 'dist/cli.js', 'x');
    write(ws.root, '.gitignore', 'dist/\n');
    const git = (...args: string[]) => spawnSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: ws.root, encoding: 'utf8' });
    expect(git('init', '-q').status).toBe(0);
    expect(git('add', '-A').status).toBe(0);
    expect(git('commit', '-qm', 'x').status).toBe(0);
    writeFileSync(join(ws.root, 'src/old.ts'), '');
    spawnSync('rm', [join(ws.root, 'src/old.ts')]);
    const res = await runCli(['lint', '--format', 'json'], { cwd: join(ws.root, 'src') });
    const messages = JSON.parse(res.stdout).flatMap((r: { messages: { message: string }[] }) => r.messages.map((m) => m.message));
    expect(messages).toEqual([
      'mentions src/old.ts, which does not exist in the repository; verify before use, then update or remove the reference',
      'mentions docs/, which does not exist in the repository; verify before use, then update or remove the reference',
    ]);
  });
});

describe('memctx lint: configuration', () => {
  it('memctx.config.json at the repository root: severities and thresholds apply', async () => {
    const ws = await tidy({ 'project_auth.md': doc(VALID, 'Iteration 3 passed at 14:32.\n') });
    write(ws.root, 'memctx.config.json', JSON.stringify({ rules: { 'content/ephemeral': 'error' } }));
    expect((await runCli(['lint'], { cwd: ws.root })).code).toBe(1);
    write(ws.root, 'memctx.config.json', JSON.stringify({ rules: { 'content/ephemeral': 'off' } }));
    expect((await runCli(['lint'], { cwd: ws.root })).code).toBe(0);
  });

  it('.memory/config.json when there is no root file', async () => {
    const ws = await tidy({ 'project_auth.md': doc({ ...VALID, type: 'runbook' }) });
    expect((await runCli(['lint'], { cwd: ws.root })).code).toBe(1);
    write(ws.mem, 'config.json', JSON.stringify({ types: ['runbook'] }));
    expect(await runCli(['lint'], { cwd: ws.root })).toMatchObject({ code: 0, stderr: '' });
  });

  it('an unknown rule id is a warning, and the run goes on', async () => {
    const ws = await tidy({ 'project_auth.md': doc(VALID) });
    write(ws.root, 'memctx.config.json', JSON.stringify({ rules: { 'content/duplicates': 'off' } }));
    const res = await runCli(['lint'], { cwd: ws.root });
    expect(res.code).toBe(0);
    expect(res.stderr).toBe(`warning: ${join(ws.root, 'memctx.config.json')}: unknown rule "content/duplicates" in "rules"; ignored (did you mean "content/duplicate"?)\n`);
  });

  it('a value of the wrong type is exit 2 naming the file and the key', async () => {
    const ws = await tidy({ 'project_auth.md': doc(VALID) });
    write(ws.root, 'memctx.config.json', JSON.stringify({ thresholds: { maxTokens: 'lots' } }));
    const res = await runCli(['lint'], { cwd: ws.root });
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain(`memctx: error: ${join(ws.root, 'memctx.config.json')}:1: invalid configuration: "thresholds.maxTokens" must be a positive whole number (got string "lots")`);
    expect(res.stderr).toContain('hint: fix "thresholds.maxTokens"');
    write(ws.root, 'memctx.config.json', '{\n  "rules": {\n    "content/duplicate": "warn",\n  }\n}\n');
    const bad = await runCli(['lint'], { cwd: ws.root });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`${join(ws.root, 'memctx.config.json')}:`);
    expect(bad.stderr).toContain('invalid JSON');
    expect((await runCli(['gc'], { cwd: ws.root })).code).toBe(2);
  });
});
