// init.ts and scaffold.ts through `memctx init`: what it creates, what it never overwrites, where.
import { mkdirSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFixture, tempDir } from '../../helpers/cli.js';
import { runCli } from '../../helpers/run.js';
import { read, snapshot } from '../../helpers/cli-util.js';

const EMPTY_INDEX = '# Memory\n\n<!-- memctx:begin -->\n_No memory files yet: add one with `memctx add`._\n<!-- memctx:end -->\n';

describe('memctx init', () => {
  it('creates .memory with MEMORY.md, templates/ and a .gitignore for .memctx/', async () => {
    const cwd = tempDir();
    expect(await runCli(['init'], { cwd })).toEqual({
      code: 0,
      stderr: '',
      stdout: 'created .memory\ncreated .memory/templates\ncreated .memory/.gitignore\ncreated .memory/MEMORY.md\n',
    });
    const files = snapshot(join(cwd, '.memory'));
    expect(Object.keys(files).sort()).toEqual(['.gitignore', 'MEMORY.md', 'templates/.gitkeep']);
    expect(read(join(cwd, '.memory', 'MEMORY.md'))).toBe(EMPTY_INDEX);
    expect(read(join(cwd, '.memory', '.gitignore'))).toBe('.memctx/\n.memctx-tmp-*\n');
    expect((await runCli(['index', '--check'], { cwd })).code).toBe(0);
  });

  it('run twice changes nothing: same bytes, same mtimes', async () => {
    const cwd = tempDir();
    await runCli(['init'], { cwd });
    const before = snapshot(join(cwd, '.memory'));
    expect(await runCli(['init'], { cwd })).toEqual({ code: 0, stdout: '.memory is already set up; nothing changed\n', stderr: '' });
    expect(snapshot(join(cwd, '.memory'))).toEqual(before);
    expect(JSON.parse((await runCli(['--json', 'init'], { cwd })).stdout)).toEqual({ dir: join(realpathSync(cwd), '.memory'), created: [] });
  });

  it('never overwrites an existing MEMORY.md or .gitignore', async () => {
    const cwd = tempDir();
    const root = join(cwd, '.memory');
    copyFixture('seed-memory', cwd);
    renameSync(join(cwd, 'seed-memory'), root);
    writeFileSync(join(root, 'MEMORY.md'), 'my own index, no markers\n');
    writeFileSync(join(root, '.gitignore'), '*.tmp');
    const result = await runCli(['init'], { cwd });
    expect(result).toEqual({ code: 0, stdout: 'created .memory/templates\ncreated .memory/.gitignore\n', stderr: '' });
    expect(read(join(root, 'MEMORY.md'))).toBe('my own index, no markers\n');
    expect(read(join(root, '.gitignore'))).toBe('*.tmp\n.memctx/\n.memctx-tmp-*\n');
  });

  it('replaces the temp-file line earlier versions wrote (*.md.[0-9]*, which hid users\' notes.md.1) with .memctx-tmp-*', async () => {
    const cwd = tempDir();
    const root = join(cwd, '.memory');
    mkdirSync(root);
    writeFileSync(join(root, '.gitignore'), '.memctx/\n*.md.[0-9]*\nscratch/\n');
    const result = await runCli(['init'], { cwd });
    expect(result.code).toBe(0);
    expect(read(join(root, '.gitignore'))).toBe('.memctx/\n.memctx-tmp-*\nscratch/\n');
  });

  it('indexes the files already there when it creates MEMORY.md', async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, '.memory'));
    writeFileSync(join(cwd, '.memory', 'user_prefs.md'), '---\nname: Prefs\ndescription: Editor settings\ntype: user\n---\n');
    expect((await runCli(['init'], { cwd })).code).toBe(0);
    expect(read(join(cwd, '.memory', 'MEMORY.md'))).toBe('# Memory\n\n<!-- memctx:begin -->\n## User\n\n- [Prefs](user_prefs.md) — Editor settings\n<!-- memctx:end -->\n');
  });

  it('refuses when .memory is a file', async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, '.memory'), 'x');
    const result = await runCli(['init'], { cwd });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`memctx: error: ${join(realpathSync(cwd), '.memory')} exists and is not a directory\n  hint: remove it or pass --dir to another path\n`);
  });

  it('honours --dir and MEMCTX_DIR', async () => {
    const cwd = tempDir();
    expect((await runCli(['--dir', 'mem', 'init'], { cwd })).stdout.split('\n')[0]).toBe('created mem');
    expect(read(join(cwd, 'mem', 'MEMORY.md'))).toBe(EMPTY_INDEX);
    expect((await runCli(['init'], { cwd, env: { MEMCTX_DIR: 'env-mem' } })).stdout.split('\n')[0]).toBe('created env-mem');
    expect(read(join(cwd, 'env-mem', 'MEMORY.md'))).toBe(EMPTY_INDEX);
  });
});
