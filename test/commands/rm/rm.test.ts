import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { read, snapshot } from '../../helpers/cli-util.js';
import { run, workspace } from '../../helpers/actions.js';

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
