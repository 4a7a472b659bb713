import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { copyFixture, FIXTURES, tempDir } from '../../helpers/cli.js';
import { read, snapshot, TIMESTAMP } from '../../helpers/cli-util.js';
import { actionProject, run, workspace } from '../../helpers/actions.js';
import { mv } from '../../../src/commands/mv/mv.js';
import { rm } from '../../../src/commands/rm/rm.js';
import { indexMemory } from '../../../src/commands/index/index.js';

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

describe('the command actions, called without the CLI', () => {
  let root: string;
  let writeDeps: Awaited<ReturnType<typeof actionProject>>['writeDeps'];
  beforeEach(async () => ({ root, writeDeps } = await actionProject()));

  it('dry runs return objects and change nothing; mv and rm re-index', async () => {
    expect(await mv({ root, from: 'auth', to: 'login', dryRun: true }, writeDeps)).toEqual({ from: 'auth.md', to: 'login.md', dryRun: true });
    expect(await rm({ root, path: 'auth', dryRun: true }, writeDeps)).toEqual({ deleted: 'auth.md', dryRun: true });
    expect(existsSync(join(root, 'auth.md'))).toBe(true);
    expect(await mv({ root, from: 'auth', to: 'login' }, writeDeps)).toEqual({ from: 'auth.md', to: 'login.md' });
    expect(readFileSync(join(root, 'MEMORY.md'), 'utf8')).toContain('login.md');
    expect(await rm({ root, path: 'login' }, writeDeps)).toEqual({ deleted: 'login.md' });
    expect(readFileSync(join(root, 'MEMORY.md'), 'utf8')).not.toContain('login.md');
    const check = await indexMemory({ root, check: true });
    expect(check.check && check.plan.changed).toBe(false);
  });
});
