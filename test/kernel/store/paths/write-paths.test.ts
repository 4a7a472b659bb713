// Paths and targets that every writing command (add, edit, rm, mv, and show for reads) must refuse or handle.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { read, snapshot } from '../../../helpers/cli-util.js';
import { run, workspace } from '../../../helpers/actions.js';

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
