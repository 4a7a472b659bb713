import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { read, snapshot, TIMESTAMP } from '../../helpers/cli-util.js';
import { run, workspace } from '../../helpers/actions.js';

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

describe('awkward targets', () => {
  it('add refuses a name with a line break', async () => {
    const { cwd } = workspace('claude-memory');
    expect((await run(cwd, ['add', 'n', '--name', 'two\nlines', '--description', 'd', '--type', 'user'])).stderr).toBe('memctx: error: --name must be one line\n');
  });

});
