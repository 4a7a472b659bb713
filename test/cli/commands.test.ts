import { existsSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFixture, FIXTURES, memctx, tempDir } from '../helpers/cli.js';
import { runCli } from '../helpers/run.js';
import { read, snapshot, TIMESTAMP } from './util.js';

/** A copy of a fixture as `<tmp>/.memory`, and the directory holding it (where commands run). */
function workspace(fixture = 'seed-memory'): { cwd: string; root: string } {
  const cwd = tempDir();
  const root = join(cwd, '.memory');
  copyFixture(fixture, cwd);
  renameSync(join(cwd, fixture), root);
  return { cwd, root };
}

const run = async (cwd: string, args: string[], input?: string) => await runCli(args, { cwd, input });

describe('memctx ls', () => {
  it('lists every file as a table', async () => {
    const { cwd } = workspace('claude-memory');
    expect(await run(cwd, ['ls'])).toEqual({
      code: 0,
      stderr: '',
      stdout: [
        'api-conventions.md         reference  -  2026-02-18T08:00:00.000Z  api-conventions — REST naming, error envelope and pagination rules for new endpoints',
        'db-migration-plan.md       project    -  2026-03-02T10:15:00.000Z  db-migration-plan — Moving the auth tables to Postgres 16 in three steps',
        'deploy-checklist.md        feedback   -  2026-02-27T17:40:00.000Z  deploy-checklist — Always run the smoke suite before promoting a canary',
        'feedback_pr-size.md        feedback   -  -                         Small pull requests — One bundled PR is fine for refactors; otherwise keep PRs under 400 lines',
        'feedback_testing.md        feedback   -  -                         Integration tests hit a real database — Never mock the database in integration tests',
        'project_release-freeze.md  project    -  -                         Release freeze — Merge freeze from 2026-03-05 for the mobile release cut',
        'reference_dashboards.md    reference  -  -                         Latency dashboard — grafana.internal/d/api-latency is what on-call watches',
        'user_role.md               user       -  -                         User role — Senior backend engineer; new to the React side of this repo',
        '',
      ].join('\n'),
    });
  });

  it('filters by --type, --kind and --tag', async () => {
    const { cwd } = workspace();
    const paths = async (args: string[]) => (JSON.parse((await run(cwd, ['--json', 'ls', ...args])).stdout) as { path: string }[]).map((f) => f.path);
    expect(await paths(['--type', 'project'])).toEqual(['project_auth.md', 'project_db.md', 'project_login_bug.md', 'tasks/auth-refactor/notes.md', 'tasks/auth-refactor/refresh-rotation.md', 'tasks/flaky-ci/notes.md']);
    expect(await paths(['--type', 'other'])).toEqual([
      'scratch_notes.md',
      'sessions/2026-11-14T091500-db-choice.md', 'sessions/2026-11-15T140200-migrations.md', 'sessions/2026-11-17T103000-users-table.md',
      'sessions/2026-11-18T162000-backfill.md', 'sessions/2026-11-19T110500-jwt-issuing.md', 'sessions/2026-11-20T173000-safari-bug.md',
      'sessions/2026-11-21T153012-auth-refactor.md',
    ]);
    expect(await paths(['--kind', 'decision'])).toEqual(['project_auth.md', 'tasks/auth-refactor/refresh-rotation.md']);
    expect(await paths(['--kind', 'session'])).toHaveLength(7);
    expect(await paths(['--tag', 'AUTH'])).toEqual(['project_auth.md', 'project_login_bug.md']);
    expect(await paths(['--type', 'project', '--kind', 'issue', '--tag', 'bug'])).toEqual(['project_login_bug.md']);
    expect(await paths(['--archive', '--kind', 'state'])).toEqual(['archive/project_old-sessions.md', 'project_db.md']);
  });

  it('--json gives each file’s fields', async () => {
    const { cwd } = workspace();
    const files = JSON.parse((await run(cwd, ['--json', 'ls', '--tag', 'security'])).stdout);
    expect(files).toEqual([
      { path: 'project_auth.md', name: 'Auth Refactor', description: 'Backend auth migration status', type: 'project', kind: 'decision', updated: '2026-11-21T15:30:12Z', importance: 8, tags: ['auth', 'security'] },
    ]);
    const plain = JSON.parse((await run(cwd, ['--json', 'ls', '--type', 'other'])).stdout)[0];
    expect(plain).toEqual({ path: 'scratch_notes.md', name: 'scratch_notes', description: '', type: null, kind: null, updated: null, importance: 5, tags: [] });
  });

  it('lists the good files of a broken directory, reports the rest, exits 1', async () => {
    const cwd = tempDir();
    copyFixture('broken', cwd);
    const result = await run(cwd, ['--dir', 'broken', 'ls']);
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n').map((l) => l.split(' ')[0])).toEqual(['bom.md', 'crlf.md', 'empty.md', 'no_frontmatter.md', '']);
    expect(result.stderr.split('\n').filter((l) => l.includes(': error: '))).toHaveLength(11);
    const json = await run(cwd, ['--dir', 'broken', '--json', 'ls']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toHaveLength(4);
  });

  it('prints nothing for an empty directory', async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, '.memory'));
    expect(await run(cwd, ['ls'])).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await run(cwd, ['--json', 'ls'])).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
  });
});

describe('memctx show', () => {
  it('prints the file as it is, BOM and CRLF included', async () => {
    const { cwd, root } = workspace();
    expect(await run(cwd, ['show', 'project_auth'])).toEqual({ code: 0, stdout: read(join(root, 'project_auth.md')), stderr: '' });
    const broken = tempDir();
    copyFixture('broken', broken);
    expect((await run(broken, ['--dir', 'broken', 'show', 'crlf.md'])).stdout).toBe(read(join(FIXTURES, 'broken/crlf.md')));
    expect((await run(broken, ['--dir', 'broken', 'show', 'bom.md'])).stdout).toBe(read(join(FIXTURES, 'broken/bom.md')));
    expect((await run(cwd, ['show', 'MEMORY.md'])).stdout).toBe(read(join(root, 'MEMORY.md')));
  });

  it('--json gives the parsed file', async () => {
    const { cwd } = workspace('claude-memory');
    const file = JSON.parse((await run(cwd, ['--json', 'show', 'db-migration-plan.md'])).stdout);
    expect(file).toMatchObject({
      path: 'db-migration-plan.md',
      name: 'db-migration-plan',
      type: 'project',
      updated: '2026-03-02T10:15:00.000Z',
      data: { name: 'db-migration-plan', description: 'Moving the auth tables to Postgres 16 in three steps', metadata: { type: 'project', confidence: 'high' }, modified: '2026-03-02T10:15:00.000Z' },
      links: [{ kind: 'markdown', target: 'project_release-freeze.md', line: 12 }, { kind: 'wiki', target: 'api-conventions', line: 14 }],
      format: { bom: false, eol: '\n', dateKey: 'modified' },
    });
  });

  it('refuses a bad file with exit 2, naming file and line', async () => {
    const cwd = tempDir();
    copyFixture('broken', cwd);
    const marker = join(cwd, 'JS_FRONTMATTER_RAN');
    for (const [file, line, message] of [
      ['malformed_yaml.md', 4, 'invalid YAML'],
      ['js_frontmatter.md', 1, '`---js` (JavaScript) frontmatter is never evaluated'],
      ['javascript_frontmatter.md', 1, 'never evaluated'],
      ['proto_key.md', 5, '`__proto__`'],
      ['binary.md', 3, 'binary data'],
      ['invalid_utf8.md', 3, 'invalid UTF-8'],
      ['unterminated.md', 1, 'never closed'],
    ] as const) {
      for (const json of [[], ['--json']]) {
        const result = await runCli(['--dir', 'broken', ...json, 'show', file], { cwd, env: { MEMCTX_JS_MARKER: marker } });
        expect(result.code).toBe(2);
        // With --json the error is also a JSON document on stdout (issue 24).
        if (json.length) expect(JSON.parse(result.stdout).error).toMatchObject({ file, line, exitCode: 2 });
        else expect(result.stdout).toBe('');
        expect(result.stderr.split('\n')[0]).toContain(`memctx: error: ${file}:${line}: `);
        expect(result.stderr).toContain(message);
      }
    }
    expect(existsSync(marker)).toBe(false);
  });

  it('--json on MEMORY.md gives its text in JSON', async () => {
    const { cwd, root } = workspace();
    expect(JSON.parse((await run(cwd, ['--json', 'show', 'MEMORY.md'])).stdout)).toEqual({ path: 'MEMORY.md', text: read(join(root, 'MEMORY.md')) });
  });

  it('says when the file does not exist', async () => {
    const { cwd } = workspace();
    expect(await run(cwd, ['show', 'nope'])).toEqual({ code: 2, stdout: '', stderr: 'memctx: error: no memory file nope.md\n  hint: run `memctx ls` to see the files\n' });
  });
});

describe('memctx add', () => {
  it('creates the file with frontmatter and body, and indexes it', async () => {
    const { cwd, root } = workspace();
    const result = await run(cwd, ['add', 'tasks/new-task/first', '--name', 'First: note', '--description', 'A new task', '--type', 'project', '--kind', 'issue', '--importance', '9', '--tag', 'a', '--tag', 'b c', '--body', 'Line one\nLine two']);
    expect(result).toEqual({ code: 0, stdout: 'created tasks/new-task/first.md\n', stderr: '' });
    const text = read(join(root, 'tasks/new-task/first.md'));
    const stamp = /created: (\S+)/.exec(text)![1];
    expect(stamp).toMatch(TIMESTAMP);
    expect(text).toBe(`---\nname: "First: note"\ndescription: A new task\ntype: project\nkind: issue\nimportance: 9\ntags: [a, b c]\ncreated: ${stamp}\nupdated: ${stamp}\n---\n\nLine one\nLine two\n`);
    expect(read(join(root, 'MEMORY.md'))).toContain('- [First: note](tasks/new-task/first.md) — A new task');
    expect((await run(cwd, ['index', '--check'])).code).toBe(0);
  });

  it('reads the body from stdin and from --body-file', async () => {
    const { cwd, root } = workspace();
    expect((await run(cwd, ['add', 'from_stdin', '--name', 'S', '--description', 'd', '--type', 'user'], 'piped body\n')).code).toBe(0);
    expect(read(join(root, 'from_stdin.md'))).toMatch(/\n---\n\npiped body\n$/);
    writeFileSync(join(cwd, 'body.txt'), 'file body');
    expect((await run(cwd, ['add', 'from_file', '--name', 'F', '--description', 'd', '--type', 'user', '--body-file', 'body.txt'])).code).toBe(0);
    expect(read(join(root, 'from_file.md'))).toMatch(/\n---\n\nfile body\n$/);
    expect((await run(cwd, ['add', 'dash', '--name', 'D', '--description', 'd', '--type', 'user', '--body-file', '-'], 'dash body')).code).toBe(0);
    expect(read(join(root, 'dash.md'))).toMatch(/\n---\n\ndash body\n$/);
    expect((await run(cwd, ['add', 'empty_body', '--name', 'E', '--description', 'd', '--type', 'user'])).code).toBe(0);
    expect(read(join(root, 'empty_body.md'))).toMatch(/\nupdated: \S+\n---\n$/);
  });

  it('never overwrites', async () => {
    const { cwd, root } = workspace();
    const before = snapshot(root);
    const result = await run(cwd, ['add', 'project_auth.md', '--name', 'X', '--description', 'd', '--type', 'project', '--body', 'new']);
    expect(result).toEqual({ code: 2, stdout: '', stderr: 'memctx: error: project_auth.md already exists; add never overwrites\n  hint: use `memctx edit` to change it, or choose another path\n' });
    expect(snapshot(root)).toEqual(before);
  });

  it.each([
    [['--name', 'x'.repeat(101), '--description', 'd', '--type', 'user'], '--name: "name" is 101 characters; at most 100'],
    [['--name', '  ', '--description', 'd', '--type', 'user'], 'missing required field "name"'],
    [['--name', 'n', '--description', 'two\nlines', '--type', 'user'], '--description must be one non-empty line'],
    [['--name', 'n', '--description', 'd', '--type', 'decision'], '--type: invalid type "decision"; expected one of user, feedback, project, reference'],
    [['--name', 'n', '--description', 'd', '--type', 'user', '--kind', 'todo'], '--kind: unknown kind "todo"; expected one of decision, issue, state, learning, session, note'],
    [['--name', 'n', '--description', 'd', '--type', 'user', '--importance', '0'], '--importance: "importance" must be a whole number from 1 to 10 (got 0)'],
    [['--name', 'n', '--description', 'd', '--type', 'user', '--importance', '2.5'], '--importance: "importance" must be a whole number from 1 to 10 (got 2.5)'],
    [['--name', 'n', '--description', 'd', '--type', 'user', '--body', 'a', '--body-file', 'b'], 'give either --body or --body-file, not both'],
    [['--name', 'n', '--description', 'd', '--type', 'user', '--body-file', 'missing.txt'], 'missing.txt: no such file'],
  ])('refuses bad fields %j with exit 2 and writes nothing', async (args, message) => {
    const { cwd, root } = workspace('claude-memory');
    const before = snapshot(root);
    const result = await run(cwd, ['add', 'new_file', ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(`memctx: error: ${message}`);
    expect(snapshot(root)).toEqual(before);
  });

  it('refuses MEMORY.md', async () => {
    const { cwd } = workspace('claude-memory');
    expect((await run(cwd, ['add', 'memory.md', '--name', 'n', '--description', 'd', '--type', 'user'])).code).toBe(2);
  });
});

describe('memctx edit', () => {
  it('replaces exactly one match and updates `updated`, keeping unknown keys, order and comments', async () => {
    const { cwd, root } = workspace();
    const original = '---\n# written by hand\nname: Custom\ndescription: Has extra keys\nzeta: first unknown\ntype: project\nupdated: 2026-01-01 # review date\nalpha:\n  nested: [1, 2]\n  deeper: {a: b}\nlist:\n  - one\n  - two\n---\n\nThe body says hello.\n';
    writeFileSync(join(root, 'custom.md'), original);
    expect(await run(cwd, ['edit', 'custom', '--old', 'says hello', '--new', 'says goodbye'])).toEqual({ code: 0, stdout: 'edited custom.md\n', stderr: '' });
    const text = read(join(root, 'custom.md'));
    const stamp = /updated: (\S+)/.exec(text)![1];
    expect(stamp).toMatch(TIMESTAMP);
    expect(text).toBe(original.replace('2026-01-01', stamp).replace('says hello', 'says goodbye'));
  });

  it('sets `modified` instead of `updated` in files that use it', async () => {
    const { cwd, root } = workspace('claude-memory');
    expect((await run(cwd, ['edit', 'db-migration-plan.md', '--old', 'Step 1 (done)', '--new', 'Step 1 (done 2026-03-01)'])).code).toBe(0);
    const text = read(join(root, 'db-migration-plan.md'));
    expect(text).not.toContain('updated:');
    const stamp = /modified: (\S+)/.exec(text)![1];
    expect(stamp).toMatch(TIMESTAMP);
    expect(text).toBe(read(join(FIXTURES, 'claude-memory/db-migration-plan.md')).replace('2026-03-02T10:15:00.000Z', stamp).replace('Step 1 (done)', 'Step 1 (done 2026-03-01)'));
  });

  it('keeps a BOM and CRLF line endings', async () => {
    const cwd = tempDir();
    const root = copyFixture('broken', cwd);
    expect((await run(cwd, ['--dir', 'broken', 'edit', 'crlf.md', '--old', 'Every line', '--new', 'Each line'])).code).toBe(0);
    const crlf = readFileSync(join(root, 'crlf.md'));
    const stamp = /updated: (\S+)/.exec(crlf.toString())![1];
    expect(crlf.toString()).toBe(read(join(FIXTURES, 'broken/crlf.md')).replace('2026-11-01', stamp).replace('Every line', 'Each line'));
    expect((await run(cwd, ['--dir', 'broken', 'edit', 'bom.md', '--old', 'still valid', '--new', 'still fine'])).code).toBe(0);
    const bom = readFileSync(join(root, 'bom.md'));
    expect([...bom.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const bomStamp = /updated: (\S+)/.exec(bom.toString())![1];
    expect(bom.toString()).toBe(read(join(FIXTURES, 'broken/bom.md')).replace('2026-11-01', bomStamp).replace('still valid', 'still fine'));
  });

  it('accepts --old written with CRLF or LF in a CRLF file', async () => {
    const cwd = tempDir();
    const root = copyFixture('broken', cwd);
    expect((await run(cwd, ['--dir', 'broken', 'edit', 'crlf.md', '--old', '---\r\n\r\nEvery', '--new', '---\n\nEach'])).code).toBe(0);
    expect(read(join(root, 'crlf.md'))).toContain('---\r\n\r\nEach line of this file ends with CR LF.\r\n');
  });

  it.each([
    ['zero', 'no such text', '--old text not found in project_auth.md', 'copy the text exactly'],
    ['three', 'auth', '--old text occurs 4 times in project_auth.md; it must occur exactly once', 'include more surrounding text'],
  ])('refuses %s matches with exit 2, saying how many', async (_n, old, message, hint) => {
    const { cwd, root } = workspace();
    const before = snapshot(root);
    const result = await run(cwd, ['edit', 'project_auth.md', '--old', old, '--new', 'x']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`memctx: error: project_auth.md: ${message}\n  hint: ${result.stderr.split('hint: ')[1]}`);
    expect(result.stderr).toContain(hint);
    expect(snapshot(root)).toEqual(before);
  });

  it('refuses an edit that would break the frontmatter, writing nothing', async () => {
    const { cwd, root } = workspace();
    const before = snapshot(root);
    const result = await run(cwd, ['edit', 'project_db.md', '--old', 'type: project', '--new', 'type: project: x']);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe('memctx: error: project_db.md:4: the edit would leave an invalid memory file: invalid YAML: Nested mappings are not allowed in compact mappings; nothing written');
    expect(snapshot(root)).toEqual(before);
  });

  it('refuses MEMORY.md, a missing file, an empty --old, and a broken file', async () => {
    const { cwd } = workspace();
    expect((await run(cwd, ['edit', 'MEMORY.md', '--old', 'Project', '--new', 'x'])).code).toBe(2);
    expect((await run(cwd, ['edit', 'nope.md', '--old', 'a', '--new', 'b'])).stderr).toBe('memctx: error: no memory file nope.md\n  hint: run `memctx ls` to see the files, or `memctx add` to create it\n');
    expect((await run(cwd, ['edit', 'project_db.md', '--old', '', '--new', 'b'])).stderr).toBe('memctx: error: --old must not be empty\n');
    const broken = tempDir();
    copyFixture('broken', broken);
    const result = await run(broken, ['--dir', 'broken', 'edit', 'binary.md', '--old', 'PNG', '--new', 'x']);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe('memctx: error: binary.md:3: binary data (a NUL byte at offset 8), not a text file');
  });

  it('edits a file without frontmatter (it stays in Other, named after the file)', async () => {
    const { cwd, root } = workspace();
    expect((await run(cwd, ['edit', 'scratch_notes.md', '--old', 'Loose notes', '--new', 'Loose jottings'])).code).toBe(0);
    expect(read(join(root, 'scratch_notes.md'))).toContain('Loose jottings that never got frontmatter.');
    expect(read(join(root, 'MEMORY.md'))).toContain('## Other\n\n- [scratch_notes](scratch_notes.md)\n');
  });
});

describe('memctx rm', () => {
  it('deletes the file and re-indexes', async () => {
    const { cwd, root } = workspace();
    expect(await run(cwd, ['rm', 'project_db'])).toEqual({ code: 0, stdout: 'deleted project_db.md\n', stderr: '' });
    expect(existsSync(join(root, 'project_db.md'))).toBe(false);
    expect(read(join(root, 'MEMORY.md'))).not.toContain('project_db.md');
    expect((await run(cwd, ['index', '--check'])).code).toBe(0);
  });

  it('--dry-run changes nothing', async () => {
    const { cwd, root } = workspace();
    const before = snapshot(root);
    expect(await run(cwd, ['rm', '--dry-run', 'project_db.md'])).toEqual({ code: 0, stdout: 'would delete project_db.md\n', stderr: '' });
    expect(snapshot(root)).toEqual(before);
  });

  it.each([
    [['.'], 'path "." names the memory directory itself'],
    [['./'], 'path "./" names the memory directory itself'],
    [['MEMORY.md'], 'refusing to delete MEMORY.md, the generated index'],
    [['memory'], 'refusing to delete MEMORY.md, the generated index'],
    [['sessions'], 'no memory file sessions.md'],
    [['missing.md'], 'no memory file missing.md'],
  ])('refuses %j with exit 2', async (args, message) => {
    const { cwd, root } = workspace();
    const before = snapshot(root);
    const result = await run(cwd, ['rm', ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(`memctx: error: ${message}`);
    expect(snapshot(root)).toEqual(before);
  });

  it('refuses a directory', async () => {
    const { cwd, root } = workspace();
    mkdirSync(join(root, 'folder.md'));
    expect((await run(cwd, ['rm', 'folder.md'])).stderr).toBe('memctx: error: folder.md is not a file; rm deletes one memory file at a time\n');
    expect(existsSync(join(root, 'folder.md'))).toBe(true);
  });
});

describe('memctx mv', () => {
  it('renames, updates the date key, keeps everything else, re-indexes', async () => {
    const { cwd, root } = workspace();
    const original = read(join(root, 'project_db.md'));
    expect(await run(cwd, ['mv', 'project_db', 'tasks/db/state'])).toEqual({ code: 0, stdout: 'renamed project_db.md to tasks/db/state.md\n', stderr: '' });
    expect(existsSync(join(root, 'project_db.md'))).toBe(false);
    const moved = read(join(root, 'tasks/db/state.md'));
    const stamp = /updated: (\S+)/.exec(moved)![1];
    expect(stamp).toMatch(TIMESTAMP);
    expect(moved).toBe(original.replace('updated: 2026-11-18', `updated: ${stamp}`));
    expect(read(join(root, 'MEMORY.md'))).toContain('- [Database](tasks/db/state.md) — PostgreSQL 16');
    expect((await run(cwd, ['index', '--check'])).code).toBe(0);
  });

  it('keeps unknown keys, comments and `modified`', async () => {
    const { cwd, root } = workspace('claude-memory');
    expect((await run(cwd, ['mv', 'api-conventions.md', 'reference_api-conventions.md'])).code).toBe(0);
    const moved = read(join(root, 'reference_api-conventions.md'));
    const stamp = /modified: (\S+)/.exec(moved)![1];
    expect(moved).toBe(read(join(FIXTURES, 'claude-memory/api-conventions.md')).replace('2026-02-18T08:00:00.000Z', stamp));
  });

  it('moves an unparseable file byte for byte', async () => {
    const cwd = tempDir();
    const root = copyFixture('broken', cwd);
    expect((await run(cwd, ['--dir', 'broken', 'mv', 'invalid_utf8.md', 'latin1.md'])).code).toBe(0);
    expect(existsSync(join(root, 'invalid_utf8.md'))).toBe(false);
    expect(readFileSync(join(root, 'latin1.md'))).toEqual(readFileSync(join(FIXTURES, 'broken/invalid_utf8.md')));
  });

  it('never overwrites', async () => {
    const { cwd, root } = workspace();
    const before = snapshot(root);
    const result = await run(cwd, ['mv', 'project_db.md', 'project_auth.md']);
    expect(result).toEqual({ code: 2, stdout: '', stderr: 'memctx: error: project_auth.md already exists; mv never overwrites\n  hint: choose another name, or remove the other file first\n' });
    expect(snapshot(root)).toEqual(before);
  });

  it.each([
    [['MEMORY.md', 'x.md'], 'refusing to move MEMORY.md or to overwrite it; it is the generated index'],
    [['project_db.md', 'MEMORY.md'], 'refusing to move MEMORY.md or to overwrite it; it is the generated index'],
    [['.', 'x'], 'path "." names the memory directory itself'],
    [['project_db.md', '.'], 'path "." names the memory directory itself'],
    [['project_db.md', 'project_db'], 'project_db.md and project_db.md are the same file'],
    [['nope.md', 'x.md'], 'no memory file nope.md'],
    [['sessions', 'old-sessions'], 'no memory file sessions.md'],
  ])('refuses %j with exit 2', async (args, message) => {
    const { cwd, root } = workspace();
    const before = snapshot(root);
    const result = await run(cwd, ['mv', ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(`memctx: error: ${message}`);
    expect(snapshot(root)).toEqual(before);
  });

  it('--dry-run changes nothing', async () => {
    const { cwd, root } = workspace();
    const before = snapshot(root);
    expect(await run(cwd, ['mv', '-n', 'project_db.md', 'db.md'])).toEqual({ code: 0, stdout: 'would rename project_db.md to db.md\n', stderr: '' });
    expect(snapshot(root)).toEqual(before);
  });
});

describe('path escapes are refused with exit 2 by every command', () => {
  function escapeWorkspace() {
    const { cwd, root } = workspace('claude-memory');
    mkdirSync(join(cwd, 'outside'));
    writeFileSync(join(cwd, 'outside', 'secret.md'), '---\nname: secret\n---\nsecret\n');
    writeFileSync(join(cwd, 'outside.md'), '---\nname: outside\n---\nx\n');
    symlinkSync(join(cwd, 'outside', 'secret.md'), join(root, 'linked.md'));
    symlinkSync(join(cwd, 'outside'), join(root, 'linkdir'));
    symlinkSync(join(cwd, 'outside', 'later.md'), join(root, 'dangling.md'));
    return { cwd, root };
  }

  const ESCAPES: [string, string][] = [
    ['../outside.md', 'leaves the memory directory (`..`)'],
    ['sessions/../../outside.md', 'leaves the memory directory (`..`)'],
    ['%2e%2e/outside.md', 'contains URL-encoded path characters'],
    ['%2E%2E%2Foutside.md', 'contains URL-encoded path characters'],
    ['ABSOLUTE', 'is absolute'],
    ['linked.md', 'resolves through a symbolic link to outside the memory directory'],
    ['linkdir/secret.md', 'resolves through a symbolic link to outside the memory directory'],
    ['linkdir/new.md', 'resolves through a symbolic link to outside the memory directory'],
    ['dangling.md', 'resolves through a symbolic link to outside the memory directory'],
  ];

  const COMMANDS: [string, (p: string) => string[]][] = [
    ['show', (p) => ['show', p]],
    ['add', (p) => ['add', p, '--name', 'n', '--description', 'd', '--type', 'user', '--body', 'pwned']],
    ['edit', (p) => ['edit', p, '--old', 'secret', '--new', 'pwned']],
    ['rm', (p) => ['rm', p]],
    ['mv (source)', (p) => ['mv', p, 'moved.md']],
    ['mv (target)', (p) => ['mv', 'user_role.md', p]],
  ];

  it.each(COMMANDS)('%s', async (_name, args) => {
    const { cwd, root } = escapeWorkspace();
    const outsideBefore = snapshot(join(cwd, 'outside'));
    const rootBefore = snapshot(root);
    for (const [escape, why] of ESCAPES) {
      const path = escape === 'ABSOLUTE' ? join(cwd, 'outside.md') : escape;
      const result = await run(cwd, args(path));
      expect(result.code, `${path}: ${result.stderr}`).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr.split('\n')[0].startsWith(`memctx: error: path "${path}" ${why}`)).toBe(true);
    }
    expect(snapshot(join(cwd, 'outside'))).toEqual(outsideBefore);
    expect(read(join(cwd, 'outside.md'))).toBe('---\nname: outside\n---\nx\n');
    expect(snapshot(root)).toEqual(rootBefore);
    expect(existsSync(join(cwd, 'outside', 'later.md'))).toBe(false);
  });
});

describe('awkward targets', () => {
  it('edit refuses a 50 MB file with a size error; mv moves it untouched', async () => {
    const { cwd, root } = workspace('claude-memory');
    const huge = Buffer.alloc(50 * 1024 * 1024, 'x');
    writeFileSync(join(root, 'huge.md'), huge);
    const edit = await run(cwd, ['edit', 'huge.md', '--old', 'xxxxx', '--new', 'y']);
    expect(edit).toEqual({ code: 2, stdout: '', stderr: 'memctx: error: huge.md: file is 52428800 bytes, over the 1048576-byte limit for a memory file; not edited\n  hint: split it into smaller memory files or move it out of the memory directory\n' });
    expect((await run(cwd, ['mv', 'huge.md', 'big/huge.md'])).code).toBe(0);
    expect(readFileSync(join(root, 'big/huge.md')).equals(huge)).toBe(true);
  });

  it('a path through a file, or to a directory, is an error that names the file, not a crash', async () => {
    const { cwd, root } = workspace('claude-memory');
    mkdirSync(join(root, 'folder.md'));
    for (const args of [
      ['add', 'user_role.md/x', '--name', 'n', '--description', 'd', '--type', 'user', '--body', 'b'],
      ['mv', 'feedback_testing.md', 'user_role.md/x.md'],
      ['edit', 'folder.md', '--old', 'a', '--new', 'b'],
    ]) {
      const result = await run(cwd, args);
      expect(result.code).toBe(2);
      expect(result.stderr).not.toContain('unexpected failure');
      expect(result.stderr).toMatch(/user_role\.md[/\\]x\.md: cannot create the file: a file stands where a folder of its path should be|folder\.md is not a file/);
    }
    expect(existsSync(join(root, 'feedback_testing.md'))).toBe(true);
  });

  it('add refuses a name with a line break', async () => {
    const { cwd } = workspace('claude-memory');
    expect((await run(cwd, ['add', 'n', '--name', 'two\nlines', '--description', 'd', '--type', 'user'])).stderr).toBe('memctx: error: --name must be one line\n');
  });

  it('edit takes --new literally ($& and $1 are not patterns)', async () => {
    const { cwd, root } = workspace('claude-memory');
    expect((await run(cwd, ['edit', 'user_role.md', '--old', 'senior backend', '--new', '$& $1 $$'])).code).toBe(0);
    expect(read(join(root, 'user_role.md'))).toContain('The user is a $& $1 $$ engineer');
  });
});

describe('never overwriting a broken symlink', () => {
  it('add and mv treat a dangling link inside the directory as an existing entry', async () => {
    const { cwd, root } = workspace('claude-memory');
    symlinkSync(join(root, 'not-there.md'), join(root, 'dangling.md'));
    expect((await run(cwd, ['add', 'dangling', '--name', 'n', '--description', 'd', '--type', 'user', '--body', 'b'])).stderr).toContain('dangling.md already exists; add never overwrites');
    expect((await run(cwd, ['mv', 'user_role.md', 'dangling.md'])).stderr).toContain('dangling.md already exists; mv never overwrites');
    expect(existsSync(join(root, 'not-there.md'))).toBe(false);
    expect(existsSync(join(root, 'user_role.md'))).toBe(true);
  });
});

describe('a line starting with --- inside the frontmatter', () => {
  it('is never lost by a rewrite: edit either refuses or keeps every line', async () => {
    const { cwd, root } = workspace('claude-memory');
    const original = '---\nname: a\n---foo\nb: 1\n---\nbody\n';
    writeFileSync(join(root, 'dashes.md'), original);
    const result = await run(cwd, ['edit', 'dashes.md', '--old', 'body', '--new', 'BODY']);
    const text = read(join(root, 'dashes.md'));
    if (result.code === 0) {
      for (const kept of ['foo', 'b: 1', 'BODY']) expect(text).toContain(kept);
    } else {
      expect(result.code).toBe(2);
      expect(text).toBe(original);
    }
  });
});
