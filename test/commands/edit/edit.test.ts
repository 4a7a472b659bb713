import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { copyFixture, FIXTURES, tempDir } from '../../helpers/cli.js';
import { read, snapshot, TIMESTAMP } from '../../helpers/cli-util.js';
import { actionProject, now, run, workspace } from '../../helpers/actions.js';
import { edit } from '../../../src/commands/edit/edit.js';
import { show } from '../../../src/commands/show/show.js';

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

describe('awkward targets', () => {
  it('edit takes --new literally ($& and $1 are not patterns)', async () => {
    const { cwd, root } = workspace('claude-memory');
    expect((await run(cwd, ['edit', 'user_role.md', '--old', 'senior backend', '--new', '$& $1 $$'])).code).toBe(0);
    expect(read(join(root, 'user_role.md'))).toContain('The user is a $& $1 $$ engineer');
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

describe('the command actions, called without the CLI', () => {
  let root: string;
  let warnings: string[];
  let writeDeps: Awaited<ReturnType<typeof actionProject>>['writeDeps'];
  beforeEach(async () => ({ root, warnings, writeDeps } = await actionProject()));

  it('add stamps the injected clock, and edit replaces one occurrence', async () => {
    expect(readFileSync(join(root, 'auth.md'), 'utf8')).toContain('updated: 2026-11-20T10:00:00Z');
    expect(await edit({ root, path: 'auth.md', old: 'every hour', new: 'every day' }, writeDeps)).toEqual({ edited: 'auth.md' });
    const shown = await show({ root, path: 'auth.md', withText: true }, { now });
    expect(shown.index === false && shown.text).toContain('Refresh tokens rotate every day.');
    expect(shown.index === false && shown.warnings).toEqual([]);
    expect(warnings).toEqual([]);
  });
});
