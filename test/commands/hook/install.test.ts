import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../helpers/cli.js';
import { runCli } from '../../helpers/run.js';
import { mergeDriverCommand } from '../../../src/kernel/hooks/merge-driver.js';
import { committedPaths, headCount, makeMemoryRepo, makeRepo, memoryFile, type TestRepo } from '../../helpers/repo.js';

const AUTH_LINE = '- [Auth refactor](project_auth.md) — Backend auth migration status';
const made: string[] = [];
afterEach(() => {
  while (made.length) removeDir(made.pop()!);
});
function track<T extends { base: string }>(repo: T): T {
  made.push(repo.base);
  return repo;
}

const hooksDir = (repo: TestRepo) => join(repo.top, '.git/hooks');
const read = (path: string) => readFileSync(path, 'utf8');
const TEAMMATES = `; teammates run once: git config merge.memctx.driver '${mergeDriverCommand({})}'\n`;
/** What install says about the MEMORY.md merge driver, which `memctx init` set in these repositories. */
const DRIVER_SET = `the MEMORY.md merge driver is already set${TEAMMATES}`;
const mode = (path: string) => statSync(path).mode & 0o7777;

function addAuthMemory(repo: TestRepo, rel = '.memory/project_auth.md', cwd?: string): void {
  repo.write(rel, memoryFile('Auth refactor', 'Backend auth migration status'));
  repo.gitOk(['add', rel], cwd);
}

/** A hook of the user's that records each run in a file beside the repository and exits with `code`. */
function userHook(repo: TestRepo, code = 0): { text: Buffer; log: string } {
  const log = join(repo.base, 'user-hook.log');
  // Odd bytes on purpose (CRLF, a non-UTF-8 byte, no final newline): restored exactly or not at all.
  const text = Buffer.concat([Buffer.from(`#!/bin/sh\n# a comment line ending in CRLF\r\necho "user hook ran in $(pwd)" >> '${log}'\n# \u00e9 `), Buffer.from([0xff]), Buffer.from(`\nexit ${code}`)]);
  return { text, log };
}

describe('memctx hook install / uninstall', () => {
  it('keeps an existing pre-commit hook, which still runs first; uninstall restores its exact bytes and mode', async () => {
    const repo = track(await makeMemoryRepo());
    const { text, log } = userHook(repo);
    const hook = join(hooksDir(repo), 'pre-commit');
    writeFileSync(hook, text);
    chmodSync(hook, 0o741);
    const install = await repo.memctx(['hook', 'install']);
    expect(install.code).toBe(0);
    expect(install.stdout).toBe(
      `installed the memctx pre-commit hook: ${hook}\n` +
        `  kept the existing hook as ${hook}.memctx-saved; it still runs first\n` +
        `  wrote ${hook}\n` +
        DRIVER_SET,
    );
    expect(readFileSync(`${hook}.memctx-saved`).equals(text)).toBe(true);
    addAuthMemory(repo);
    expect(repo.git(['commit', '-q', '-m', 'auth']).code).toBe(0);
    expect(read(log)).toBe(`user hook ran in ${repo.top}\n`);
    expect(repo.gitOk(['show', 'HEAD:.memory/MEMORY.md']).split('\n')).toContain(AUTH_LINE);

    const uninstall = await repo.memctx(['hook', 'uninstall']);
    expect(uninstall.code).toBe(0);
    expect(uninstall.stdout).toBe(`removed the memctx pre-commit hook: ${hook}\n  removed ${hook}\n  put back the earlier hook from ${hook}.memctx-saved\n`);
    expect(readFileSync(hook).equals(text)).toBe(true);
    expect(mode(hook)).toBe(0o741);
    expect(existsSync(`${hook}.memctx-saved`)).toBe(false);
    // The user's hook runs alone again: memctx no longer rebuilds the index.
    repo.write('.memory/project_db.md', memoryFile('DB', 'Database notes'));
    repo.gitOk(['add', '.memory/project_db.md']);
    expect(repo.git(['commit', '-q', '-m', 'db']).code).toBe(0);
    expect(committedPaths(repo)).toEqual(['.memory/project_db.md']);
    expect(read(log).split('\n').filter(Boolean)).toHaveLength(2);
  });

  it("blocks the commit when the user's hook fails, before memctx runs", async () => {
    const repo = track(await makeMemoryRepo());
    const { text, log } = userHook(repo, 3);
    const hook = join(hooksDir(repo), 'pre-commit');
    writeFileSync(hook, text);
    chmodSync(hook, 0o755);
    expect((await repo.memctx(['hook', 'install'])).code).toBe(0);
    addAuthMemory(repo);
    const indexFile = join(repo.top, '.memory/MEMORY.md');
    const before = read(indexFile);
    const commits = headCount(repo);
    const commit = repo.git(['commit', '-m', 'blocked']);
    expect(commit.code).toBe(1);
    expect(read(log)).toBe(`user hook ran in ${repo.top}\n`);
    expect(headCount(repo)).toBe(commits);
    expect(read(indexFile)).toBe(before);
  });

  it('does not run a kept hook that was not executable (git would not have run it either)', async () => {
    const repo = track(await makeMemoryRepo());
    const { text, log } = userHook(repo, 3);
    const hook = join(hooksDir(repo), 'pre-commit');
    writeFileSync(hook, text);
    chmodSync(hook, 0o644);
    expect((await repo.memctx(['hook', 'install'])).code).toBe(0);
    addAuthMemory(repo);
    expect(repo.git(['commit', '-q', '-m', 'auth']).code).toBe(0);
    expect(existsSync(log)).toBe(false);
    expect((await repo.memctx(['hook', 'uninstall'])).code).toBe(0);
    expect(readFileSync(hook).equals(text)).toBe(true);
    expect(mode(hook)).toBe(0o644);
  });

  it('restores a symlinked hook as the same symlink', async () => {
    const repo = track(await makeMemoryRepo());
    const { text, log } = userHook(repo);
    repo.write('scripts/pre-commit', text.toString('latin1'));
    chmodSync(join(repo.top, 'scripts/pre-commit'), 0o755);
    const hook = join(hooksDir(repo), 'pre-commit');
    symlinkSync('../../scripts/pre-commit', hook);
    expect((await repo.memctx(['hook', 'install'])).code).toBe(0);
    addAuthMemory(repo);
    expect(repo.git(['commit', '-q', '-m', 'auth']).code).toBe(0);
    expect(read(log)).toContain('user hook ran');
    expect((await repo.memctx(['hook', 'uninstall'])).code).toBe(0);
    expect(lstatSync(hook).isSymbolicLink()).toBe(true);
    expect(readlinkSync(hook)).toBe('../../scripts/pre-commit');
  });

  it('installing twice is a no-op: same bytes, same file, the kept hook untouched', async () => {
    const repo = track(await makeMemoryRepo());
    const { text } = userHook(repo);
    const hook = join(hooksDir(repo), 'pre-commit');
    writeFileSync(hook, text);
    chmodSync(hook, 0o755);
    expect((await repo.memctx(['hook', 'install'])).code).toBe(0);
    const first = read(hook);
    const stat = statSync(hook);
    const again = await repo.memctx(['hook', 'install']);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(`the memctx pre-commit hook is already installed; nothing changed: ${hook}\n${DRIVER_SET}`);
    expect(read(hook)).toBe(first);
    expect(statSync(hook).ino).toBe(stat.ino);
    expect(statSync(hook).mtimeMs).toBe(stat.mtimeMs);
    expect(readFileSync(`${hook}.memctx-saved`).equals(text)).toBe(true);
    expect(readdirSync(hooksDir(repo)).filter((f) => f.startsWith('pre-commit') && !f.endsWith('.sample')).sort()).toEqual(['pre-commit', 'pre-commit.memctx-saved']);
    // And uninstall still gives back the original.
    expect((await repo.memctx(['hook', 'uninstall'])).code).toBe(0);
    expect(readFileSync(hook).equals(text)).toBe(true);
  });

  it('with no earlier hook, uninstall leaves no pre-commit behind; uninstalling again is a no-op', async () => {
    const repo = track(await makeMemoryRepo());
    const hook = join(hooksDir(repo), 'pre-commit');
    expect((await repo.memctx(['hook', 'install'])).code).toBe(0);
    expect(read(hook)).toContain('# memctx-hook: pre-commit v1');
    expect((await repo.memctx(['hook', 'uninstall'])).code).toBe(0);
    expect(existsSync(hook)).toBe(false);
    const again = await repo.memctx(['hook', 'uninstall']);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe('the memctx pre-commit hook is not installed; nothing to remove\n');
  });

  it('install rewrites a memctx hook that another copy installed or that lost its executable bits', async () => {
    const repo = track(await makeMemoryRepo());
    const hook = join(hooksDir(repo), 'pre-commit');
    expect((await repo.memctx(['hook', 'install'])).code).toBe(0);
    const current = read(hook);
    writeFileSync(hook, current.replace(/^bin='.*'$/m, "bin='/old/place/bin/memctx.js'"));
    const update = await repo.memctx(['hook', 'install']);
    expect(update.stdout).toBe(`updated the memctx pre-commit hook: ${hook}\n  wrote ${hook}\n${DRIVER_SET}`);
    expect(read(hook)).toBe(current);
    chmodSync(hook, 0o644);
    expect((await repo.memctx(['hook', 'install'])).stdout).toContain('updated the memctx pre-commit hook');
    expect(mode(hook)).toBe(0o755);
  });

  it('another tool replaced the hook: uninstall touches neither it nor the kept one, and says so', async () => {
    const repo = track(await makeMemoryRepo());
    const { text } = userHook(repo);
    const hook = join(hooksDir(repo), 'pre-commit');
    writeFileSync(hook, text);
    expect((await repo.memctx(['hook', 'install'])).code).toBe(0);
    writeFileSync(hook, '#!/bin/sh\necho other tool\n');
    const result = await repo.memctx(['hook', 'uninstall']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('the memctx pre-commit hook is not installed; nothing to remove\n');
    expect(result.stderr).toBe(`warning: ${hook} is not memctx's hook (another tool replaced it?); ${hook}.memctx-saved was left in place\n`);
    expect(read(hook)).toBe('#!/bin/sh\necho other tool\n');
    expect(readFileSync(`${hook}.memctx-saved`).equals(text)).toBe(true);
  });

  it('memctx hook deleted by hand: install refuses (exit 2), uninstall puts the kept hook back', async () => {
    const repo = track(await makeMemoryRepo());
    const { text } = userHook(repo);
    const hook = join(hooksDir(repo), 'pre-commit');
    writeFileSync(hook, text);
    chmodSync(hook, 0o700);
    expect((await repo.memctx(['hook', 'install'])).code).toBe(0);
    removeDir(hook);
    const install = await repo.memctx(['hook', 'install']);
    expect(install.code).toBe(2);
    expect(install.stderr).toContain(`${hook}.memctx-saved is left from an earlier install but ${hook} is gone`);
    const uninstall = await repo.memctx(['hook', 'uninstall']);
    expect(uninstall.code).toBe(0);
    expect(uninstall.stdout).toBe(`removed the memctx pre-commit hook: ${hook}\n  put back the earlier hook from ${hook}.memctx-saved\n`);
    expect(readFileSync(hook).equals(text)).toBe(true);
    expect(mode(hook)).toBe(0o700);
  });

  it("uninstall leaves someone else's hook alone", async () => {
    const repo = track(await makeMemoryRepo());
    const { text } = userHook(repo);
    const hook = join(hooksDir(repo), 'pre-commit');
    writeFileSync(hook, text);
    const result = await repo.memctx(['hook', 'uninstall']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('the memctx pre-commit hook is not installed; nothing to remove\n');
    expect(readFileSync(hook).equals(text)).toBe(true);
  });

  it('--dry-run prints the plan and changes nothing, for install and uninstall', async () => {
    const repo = track(await makeMemoryRepo());
    const { text } = userHook(repo);
    const hook = join(hooksDir(repo), 'pre-commit');
    writeFileSync(hook, text);
    const dry = await repo.memctx(['hook', 'install', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toBe(
      `would install the memctx pre-commit hook: ${hook}\n` +
        `  would keep the existing hook as ${hook}.memctx-saved; it still runs first\n` +
        `  would write ${hook}\n` +
        DRIVER_SET,
    );
    expect(readFileSync(hook).equals(text)).toBe(true);
    expect(existsSync(`${hook}.memctx-saved`)).toBe(false);
    expect((await repo.memctx(['hook', 'install'])).code).toBe(0);
    const installed = read(hook);
    const dryUninstall = await repo.memctx(['hook', 'uninstall', '--dry-run']);
    expect(dryUninstall.stdout).toBe(`would remove the memctx pre-commit hook: ${hook}\n  would remove ${hook}\n  would put back the earlier hook from ${hook}.memctx-saved\n`);
    expect(read(hook)).toBe(installed);
    const json = await repo.memctx(['--json', 'hook', 'uninstall', '--dry-run']);
    expect(JSON.parse(json.stdout)).toEqual({
      status: 'uninstall',
      dryRun: true,
      hook,
      hooksDir: hooksDir(repo),
      actions: [
        { op: 'remove', path: hook },
        { op: 'restore', from: `${hook}.memctx-saved`, to: hook },
      ],
      warnings: [],
    });
    expect(read(hook)).toBe(installed);
  });

  it('refuses (exit 2) to overwrite a file already at pre-commit.memctx-saved', async () => {
    const repo = track(await makeMemoryRepo());
    const hook = join(hooksDir(repo), 'pre-commit');
    writeFileSync(hook, '#!/bin/sh\nexit 0\n');
    writeFileSync(`${hook}.memctx-saved`, 'something else\n');
    const result = await repo.memctx(['hook', 'install']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`cannot keep the existing pre-commit hook: ${hook}.memctx-saved already exists`);
    expect(read(hook)).toBe('#!/bin/sh\nexit 0\n');
    expect(read(`${hook}.memctx-saved`)).toBe('something else\n');
  });

  it("refuses (exit 2) to chain a copy of memctx's own hook, which would run memctx twice", async () => {
    const repo = track(await makeMemoryRepo());
    const hook = join(hooksDir(repo), 'pre-commit');
    expect((await repo.memctx(['hook', 'install'])).code).toBe(0);
    writeFileSync(`${hook}.memctx-saved`, read(hook));
    writeFileSync(hook, '#!/bin/sh\nexit 0\n');
    const result = await repo.memctx(['hook', 'install']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("pre-commit.memctx-saved holds memctx's own hook, so chaining it would run memctx twice");
    expect(read(hook)).toBe('#!/bin/sh\nexit 0\n');
  });

  it('warns when core.hooksPath belongs to husky', async () => {
    const repo = track(await makeMemoryRepo());
    repo.gitOk(['config', 'core.hooksPath', '.husky/_']);
    const result = await repo.memctx(['hook', 'install', '--dry-run']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('core.hooksPath points at husky, which rewrites its hooks: add `npx memctx index --staged` to .husky/pre-commit instead');
    expect(existsSync(join(repo.top, '.husky'))).toBe(false);
  });

  it('refuses (exit 2) when pre-commit is a directory', async () => {
    const repo = track(await makeMemoryRepo());
    mkdirSync(join(hooksDir(repo), 'pre-commit'));
    const result = await repo.memctx(['hook', 'install']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('pre-commit is a directory, not a hook');
  });

  it('puts the hook where core.hooksPath says, and it runs there (relative path, installed from a subdirectory)', async () => {
    const repo = track(await makeMemoryRepo());
    repo.gitOk(['config', 'core.hooksPath', '.githooks']);
    mkdirSync(join(repo.top, 'src'));
    const result = await repo.memctx(['hook', 'install'], join(repo.top, 'src'));
    expect(result.code).toBe(0);
    const hook = join(repo.top, '.githooks/pre-commit');
    expect(result.stdout).toBe(`installed the memctx pre-commit hook: ${hook}\n  created ${join(repo.top, '.githooks')}/\n  wrote ${hook}\n${DRIVER_SET}`);
    expect(result.stderr).toContain('is inside the working tree (core.hooksPath)');
    expect(existsSync(join(hooksDir(repo), 'pre-commit'))).toBe(false);
    addAuthMemory(repo);
    expect(repo.git(['commit', '-q', '-m', 'auth'], join(repo.top, 'src')).code).toBe(0);
    expect(repo.gitOk(['show', 'HEAD:.memory/MEMORY.md']).split('\n')).toContain(AUTH_LINE);
    expect((await repo.memctx(['hook', 'uninstall'])).code).toBe(0);
    expect(existsSync(join(repo.top, '.githooks'))).toBe(false); // memctx created it, and it is empty again
  });

  it('core.hooksPath outside the repository (absolute)', async () => {
    const repo = track(await makeMemoryRepo());
    const shared = join(repo.base, 'shared-hooks');
    repo.gitOk(['config', 'core.hooksPath', shared]);
    const result = await repo.memctx(['hook', 'install']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(existsSync(join(shared, 'pre-commit'))).toBe(true);
    addAuthMemory(repo);
    expect(repo.git(['commit', '-q', '-m', 'auth']).code).toBe(0);
    expect(committedPaths(repo)).toEqual(['.memory/MEMORY.md', '.memory/project_auth.md']);
  });

  it('works in a linked worktree: the hook goes to the shared hooks directory and indexes that worktree', async () => {
    const repo = track(await makeMemoryRepo());
    const wt = join(repo.base, 'feature-wt');
    repo.gitOk(['worktree', 'add', '-q', '-b', 'feature', wt]);
    const result = await repo.memctx(['hook', 'install'], wt);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`installed the memctx pre-commit hook: ${join(repo.top, '.git/hooks/pre-commit')}`);
    repo.write('../feature-wt/.memory/project_auth.md', memoryFile('Auth refactor', 'Backend auth migration status'));
    repo.gitOk(['add', '.memory/project_auth.md'], wt);
    const commit = repo.git(['commit', '-q', '-m', 'auth in worktree'], wt);
    expect(commit.code).toBe(0);
    expect(committedPaths(repo, wt)).toEqual(['.memory/MEMORY.md', '.memory/project_auth.md']);
    expect(repo.gitOk(['show', 'feature:.memory/MEMORY.md']).split('\n')).toContain(AUTH_LINE);
    // A partial commit (`git commit PATH`) in the worktree, whose index lives in .git/worktrees/.
    repo.write('../feature-wt/.memory/project_db.md', memoryFile('DB', 'Database notes'));
    repo.gitOk(['add', '-N', '.memory/project_db.md'], wt);
    expect(repo.git(['commit', '-q', '-m', 'db in worktree', '.memory/project_db.md'], wt).code).toBe(0);
    expect(committedPaths(repo, wt)).toEqual(['.memory/MEMORY.md', '.memory/project_db.md']);
    expect(repo.gitOk(['status', '--porcelain'], wt)).toBe('');
    // The main worktree's MEMORY.md is its own and untouched.
    expect(read(join(repo.top, '.memory/MEMORY.md'))).not.toContain('Auth refactor');
    expect(repo.gitOk(['status', '--porcelain'], wt)).toBe('');
    // The same hook serves the main worktree.
    addAuthMemory(repo);
    expect(repo.git(['commit', '-q', '-m', 'auth in main']).code).toBe(0);
    expect(repo.gitOk(['show', 'HEAD:.memory/MEMORY.md']).split('\n')).toContain(AUTH_LINE);
  });

  it('records --dir for a memory directory that is not <top>/.memory (path with a space and a quote)', async () => {
    const repo = track(await makeRepo());
    const dir = "packages/my app's/.memory";
    expect((await repo.memctx(['--dir', dir, 'init'])).code).toBe(0);
    const install = await repo.memctx(['--dir', dir, 'hook', 'install']);
    expect(install.code).toBe(0);
    const script = read(join(hooksDir(repo), 'pre-commit'));
    expect(script).toContain(`--dir 'packages/my app'\\''s/.memory' index --staged`);
    repo.gitOk(['add', '-A']);
    addAuthMemory(repo, `${dir}/project_auth.md`);
    const commit = repo.git(['commit', '-q', '-m', 'nested memory']);
    expect(commit.code).toBe(0);
    expect(repo.gitOk(['show', `HEAD:${dir}/MEMORY.md`]).split('\n')).toContain(AUTH_LINE);
  });

  it('finds a nested memory directory by walking up from where install runs', async () => {
    const repo = track(await makeRepo());
    mkdirSync(join(repo.top, 'app'));
    expect((await repo.memctx(['init'], join(repo.top, 'app'))).code).toBe(0);
    expect((await repo.memctx(['hook', 'install'], join(repo.top, 'app'))).code).toBe(0);
    expect(read(join(hooksDir(repo), 'pre-commit'))).toContain("--dir 'app/.memory' index --staged");
    repo.gitOk(['add', '-A']);
    addAuthMemory(repo, 'app/.memory/project_auth.md');
    expect(repo.git(['commit', '-q', '-m', 'app memory']).code).toBe(0);
    expect(repo.gitOk(['show', 'HEAD:app/.memory/MEMORY.md']).split('\n')).toContain(AUTH_LINE);
  });

  it('in a repository with no memory directory, commits go through and the hook says why it did nothing', async () => {
    const repo = track(await makeRepo());
    expect((await repo.memctx(['hook', 'install'])).code).toBe(0);
    repo.write('a.txt', 'a\n');
    repo.gitOk(['add', 'a.txt']);
    const commit = repo.git(['commit', '-q', '-m', 'a']);
    expect(commit.code).toBe(0);
    expect(commit.stderr).toBe(`warning: no memory directory at ${join(repo.top, '.memory')}; nothing to index\n`);
  });
});

describe('bad input', () => {
  it('not a git repository: index --staged and hook install exit 2 with a clear error', async () => {
    const base = tempDir('memctx-nogit-');
    made.push(base);
    const dir = join(base, 'plain');
    mkdirSync(join(dir, '.memory'), { recursive: true });
    const env = { GIT_CEILING_DIRECTORIES: base, GIT_DIR: undefined, GIT_INDEX_FILE: undefined, GIT_WORK_TREE: undefined };
    for (const args of [['index', '--staged'], ['hook', 'install'], ['hook', 'uninstall'], ['hook', 'install', '--dry-run']]) {
      const result = await runCli(args, { cwd: dir, env });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`memctx: error: not in a git working tree: ${dir} (not a git repository`);
      expect(result.stderr).toContain('hint: run this inside a git repository (`git init` creates one)');
    }
  });

  it('a memory directory outside the repository: exit 2 for index --staged and hook install', async () => {
    const repo = track(await makeRepo());
    const outside = join(repo.base, 'elsewhere/.memory');
    mkdirSync(outside, { recursive: true });
    const install = await repo.memctx(['--dir', outside, 'hook', 'install']);
    expect(install.code).toBe(2);
    expect(install.stderr).toContain(`memory directory ${outside} is outside the git repository ${repo.top}`);
    // The pre-commit hook's command is refused by the root finder, as every hook is.
    const staged = await repo.memctx(['--dir', outside, 'index', '--staged']);
    expect(staged.code).toBe(2);
    expect(staged.stderr).toContain(`memory directory ${outside} leaves the project ${repo.top}\n`);
    expect(existsSync(join(hooksDir(repo), 'pre-commit'))).toBe(false);
    const viaEnv = await runCli(['index', '--staged'], { cwd: repo.top, env: { ...repo.env, MEMCTX_DIR: outside } });
    expect(viaEnv.code).toBe(2);
  });
});
