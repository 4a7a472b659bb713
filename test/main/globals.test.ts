import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
// The built CLI (npm test builds first): src/kernel/version.ts finds package.json relative to dist/.
import { main } from '../../dist/src/main.js';
import type { Io } from '../../src/kernel/cli/context.js';
import { tempDir } from '../helpers/cli.js';
import { runCli } from '../helpers/run.js';
import { read } from '../helpers/cli-util.js';

describe('finding the memory directory', () => {
  async function tree() {
    const base = realpathSync(tempDir());
    const project = join(base, 'project');
    mkdirSync(join(project, 'src', 'deep', 'er'), { recursive: true });
    await runCli(['init'], { cwd: project });
    await runCli(['add', 'found', '--name', 'Found', '--description', 'in project', '--type', 'user', '--body', 'x'], { cwd: project });
    mkdirSync(join(base, 'other'));
    await runCli(['init'], { cwd: join(base, 'other') });
    await runCli(['add', 'other', '--name', 'Other', '--description', 'in other', '--type', 'user', '--body', 'x'], { cwd: join(base, 'other') });
    return { base, project };
  }
  const names = (result: { stdout: string }) => (JSON.parse(result.stdout) as { name: string }[]).map((f) => f.name);

  it('walks up from the working directory to the nearest .memory/', async () => {
    const { project } = await tree();
    expect(names(await runCli(['--json', 'ls'], { cwd: join(project, 'src', 'deep', 'er') }))).toEqual(['Found']);
    // A .memory that is a file is not a memory directory: the walk goes on up.
    writeFileSync(join(project, 'src', '.memory'), 'not a directory');
    expect(names(await runCli(['--json', 'ls'], { cwd: join(project, 'src', 'deep') }))).toEqual(['Found']);
  });

  it('MEMCTX_DIR beats the walk, and --dir beats MEMCTX_DIR', async () => {
    const { base, project } = await tree();
    expect(names(await runCli(['--json', 'ls'], { cwd: project, env: { MEMCTX_DIR: '../other/.memory' } }))).toEqual(['Other']);
    expect(names(await runCli(['--json', '--dir', '.memory', 'ls'], { cwd: project, env: { MEMCTX_DIR: join(base, 'other', '.memory') } }))).toEqual(['Found']);
  });

  it('says what to do when there is none', async () => {
    const cwd = realpathSync(tempDir());
    expect(await runCli(['ls'], { cwd })).toEqual({ code: 2, stdout: '', stderr: `memctx: error: no .memory/ directory in ${cwd} or any parent\n  hint: run \`memctx init\` to create one, or pass --dir PATH\n` });
    expect(await runCli(['--dir', 'nope', 'ls'], { cwd })).toEqual({ code: 2, stdout: '', stderr: `memctx: error: memory directory ${join(cwd, 'nope')} does not exist\n  hint: run \`memctx --dir nope init\` to create it, or pass --dir PATH to an existing memory directory\n` });
    writeFileSync(join(cwd, 'file'), 'x');
    expect((await runCli(['--dir', 'file', 'ls'], { cwd })).stderr).toContain(`memory directory ${join(cwd, 'file')} is not a directory`);
    expect((await runCli(['ls'], { cwd, env: { MEMCTX_DIR: 'gone' } })).stderr).toContain(`memory directory ${join(cwd, 'gone')} does not exist`);
  });

  it('--claude uses ~/.claude/projects/<cwd with non-alphanumerics as ->/memory', async () => {
    const home = realpathSync(tempDir('memctx-home-'));
    const cwd = join(realpathSync(tempDir()), 'My Project.v2');
    mkdirSync(cwd);
    const expected = join(home, '.claude', 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'), 'memory');
    expect(expected).toMatch(/-My-Project-v2[/\\]memory$/);
    const init = await runCli(['--claude', '--json', 'init'], { cwd, env: { HOME: home } });
    expect(JSON.parse(init.stdout)).toEqual({ dir: expected, created: ['.', 'templates/', '.gitignore', 'MEMORY.md'] });
    expect((await runCli(['--claude', 'add', 'user_role', '--name', 'Role', '--description', 'From Claude', '--type', 'user', '--body', 'x'], { cwd, env: { HOME: home } })).code).toBe(0);
    expect(read(join(expected, 'MEMORY.md'))).toContain('- [Role](user_role.md) — From Claude');
    expect(names(await runCli(['--claude', '--json', 'ls'], { cwd, env: { HOME: home, MEMCTX_DIR: '/nowhere' } }))).toEqual(['Role']);
    expect((await runCli(['--claude', 'ls'], { cwd: realpathSync(tempDir()), env: { HOME: home } })).stderr).toMatch(/^memctx: error: memory directory .*[/\\]memory does not exist/);
  });
});

describe('--claude inside a git repository', () => {
  it('keys the directory on the repository root, from a subdirectory and from a linked worktree', async () => {
    const home = realpathSync(tempDir('memctx-home-'));
    const repo = join(realpathSync(tempDir()), 'repo');
    mkdirSync(join(repo, 'src', 'deep'), { recursive: true });
    mkdirSync(join(repo, '.git'));
    const expected = join(home, '.claude', 'projects', repo.replace(/[^A-Za-z0-9]/g, '-'), 'memory');
    const init = await runCli(['--claude', '--json', 'init'], { cwd: join(repo, 'src', 'deep'), env: { HOME: home } });
    expect(JSON.parse(init.stdout).dir).toBe(expected);
    const worktree = join(realpathSync(tempDir()), 'wt');
    mkdirSync(worktree);
    writeFileSync(join(worktree, '.git'), `gitdir: ${join(repo, '.git', 'worktrees', 'wt')}\n`);
    expect(JSON.parse((await runCli(['--claude', '--json', 'init'], { cwd: worktree, env: { HOME: home } })).stdout)).toEqual({ dir: expected, created: [] });
  });
});

describe('--json, --quiet', () => {
  it('every write command prints one JSON document with --json', async () => {
    const cwd = tempDir();
    const json = async (args: string[]) => {
      const result = await runCli(['--json', ...args], { cwd });
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      return JSON.parse(result.stdout);
    };
    expect((await json(['init'])).created).toEqual(['.', 'templates/', '.gitignore', 'MEMORY.md']);
    expect(await json(['add', 'a', '--name', 'A', '--description', 'd', '--type', 'user', '--body', 'hello'])).toEqual({ created: 'a.md' });
    expect(await json(['edit', 'a', '--old', 'hello', '--new', 'bye'])).toEqual({ edited: 'a.md' });
    expect(await json(['mv', 'a', 'b'])).toEqual({ from: 'a.md', to: 'b.md' });
    expect(await json(['index'])).toEqual({ changed: false, files: 1, problems: [] });
    expect(await json(['index', '--check'])).toEqual({ upToDate: true, exists: true, missing: [], unexpected: [], problems: [] });
    expect(await json(['rm', 'b'])).toEqual({ deleted: 'b.md' });
  });

  it('--quiet prints nothing but errors', async () => {
    const cwd = tempDir();
    expect(await runCli(['-q', 'init'], { cwd })).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await runCli(['--quiet', 'add', 'a', '--name', 'A', '--description', 'd', '--type', 'user', '--body', 'x'], { cwd })).toEqual({ code: 0, stdout: '', stderr: '' });
    expect((await runCli(['--quiet', 'show', 'zz'], { cwd })).stderr).toContain('no memory file zz.md');
  });

  it('a usage error exits 2', async () => {
    const cwd = tempDir();
    const result = await runCli(['add', 'x'], { cwd });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("required option '--name <name>' not specified");
    expect((await runCli(['no-such-command'], { cwd })).code).toBe(2);
    expect((await runCli(['--help'], { cwd })).code).toBe(0);
  });
});

describe('colour', () => {
  function fakeIo(env: Record<string, string>, cwd: string): { io: Io; err: () => string } {
    let err = '';
    const stdout = { isTTY: true, write: () => true };
    const stderr = { isTTY: true, write: (t: string) => ((err += t), true) };
    const stdin = Object.assign(new PassThrough(), { isTTY: true });
    return { io: { stdout, stderr, stdin, cwd, env, home: cwd, now: () => new Date('2026-11-21T12:00:00Z') }, err: () => err };
  }
  const RED = '\u001b[31m';

  it('colours errors on a terminal, and not with --no-color or NO_COLOR', async () => {
    const cwd = realpathSync(tempDir());
    const coloured = fakeIo({}, cwd);
    expect(await main(['node', 'memctx', 'ls'], coloured.io)).toBe(2);
    expect(coloured.err()).toContain(`${RED}error:`);
    const flag = fakeIo({}, cwd);
    expect(await main(['node', 'memctx', '--no-color', 'ls'], flag.io)).toBe(2);
    expect(flag.err()).toBe(`memctx: error: no .memory/ directory in ${cwd} or any parent\n  hint: run \`memctx init\` to create one, or pass --dir PATH\n`);
    const env = fakeIo({ NO_COLOR: '1' }, cwd);
    await main(['node', 'memctx', 'ls'], env.io);
    expect(env.err()).toBe(flag.err());
    const emptyNoColor = fakeIo({ NO_COLOR: '' }, cwd);
    await main(['node', 'memctx', 'ls'], emptyNoColor.io);
    expect(emptyNoColor.err()).toContain(RED);
  });

  it('does not colour output that is not a terminal unless forced', async () => {
    const cwd = tempDir();
    const result = await runCli(['ls'], { cwd, env: { NO_COLOR: undefined } });
    expect(result.stderr).not.toContain('\u001b[');
  });
});
