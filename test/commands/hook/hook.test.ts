import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, removeDir, stateOf } from '../../helpers/cli.js';
import { committedPaths, headCount, makeMemoryRepoWith, memoryFile, type TestRepo } from '../../helpers/repo.js';

const AUTH_LINE = '- [Auth refactor](project_auth.md) — Backend auth migration status';
const made: string[] = [];
afterEach(() => {
  while (made.length) removeDir(made.pop()!);
});
function track(repo: TestRepo): TestRepo {
  made.push(repo.base);
  return repo;
}

const hookPath = (repo: TestRepo) => join(repo.top, '.git/hooks/pre-commit');
const read = (path: string) => readFileSync(path, 'utf8');

async function install(repo: TestRepo): Promise<void> {
  const result = await repo.memctx(['hook', 'install']);
  expect(result.stderr).not.toContain('error');
  expect(result.code).toBe(0);
}

/** A makeMemoryRepo repository with the hook installed (built once per file, copied for each test). */
const installedRepo = () => makeMemoryRepoWith('hook installed', install);

function addAuthMemory(repo: TestRepo, rel = '.memory/project_auth.md'): void {
  repo.write(rel, memoryFile('Auth refactor', 'Backend auth migration status'));
  repo.gitOk(['add', rel]);
}

describe('memctx hook install: the hook in a real git commit', () => {
  it('rebuilds MEMORY.md and includes it in a commit that adds a memory file', async () => {
    const repo = track(await installedRepo());
    expect(statSync(hookPath(repo)).mode & 0o777).toBe(0o755);
    addAuthMemory(repo);
    const commit = repo.git(['commit', '-m', 'add auth memory']);
    expect(commit.code).toBe(0);
    expect(commit.stdout + commit.stderr).toContain('memctx: MEMORY.md rebuilt and staged (2 files)');
    expect(committedPaths(repo)).toEqual(['.memory/MEMORY.md', '.memory/project_auth.md']);
    const committed = repo.gitOk(['show', 'HEAD:.memory/MEMORY.md']);
    expect(committed.split('\n')).toContain(AUTH_LINE);
    expect(committed).toBe(read(join(repo.top, '.memory/MEMORY.md')));
    expect(repo.gitOk(['status', '--porcelain'])).toBe('');
    expect((await repo.memctx(['index', '--check'])).code).toBe(0);
  });

  it('leaves MEMORY.md alone when the commit touches no memory file, and says nothing', async () => {
    const repo = track(await installedRepo());
    // A memory file on disk but not staged: a rebuild would change MEMORY.md, so an untouched one proves none ran.
    repo.write('.memory/project_auth.md', memoryFile('Auth refactor', 'Backend auth migration status'));
    const indexFile = join(repo.top, '.memory/MEMORY.md');
    const before = read(indexFile);
    const mtime = statSync(indexFile).mtimeMs;
    repo.write('README.md', '# project\n\nmore\n');
    repo.gitOk(['add', 'README.md']);
    const commit = repo.git(['commit', '-q', '-m', 'readme only']);
    expect(commit.code).toBe(0);
    expect(commit.stdout + commit.stderr).toBe('');
    expect(committedPaths(repo)).toEqual(['README.md']);
    expect(read(indexFile)).toBe(before);
    expect(statSync(indexFile).mtimeMs).toBe(mtime);
    expect(existsSync(join(stateOf(join(repo.top, '.memory')), 'lock'))).toBe(false);
  });

  it('works for a commit made from a subdirectory', async () => {
    const repo = track(await installedRepo());
    repo.write('src/app.js', 'console.log(1);\n');
    addAuthMemory(repo);
    repo.gitOk(['add', 'src/app.js']);
    const commit = repo.git(['commit', '-q', '-m', 'from a subdirectory'], join(repo.top, 'src'));
    expect(commit.code).toBe(0);
    expect(committedPaths(repo)).toEqual(['.memory/MEMORY.md', '.memory/project_auth.md', 'src/app.js']);
    expect(repo.gitOk(['show', 'HEAD:.memory/MEMORY.md']).split('\n')).toContain(AUTH_LINE);
  });

  it('works with `git commit -a` (git hands the hook a temporary index)', async () => {
    const repo = track(await installedRepo());
    repo.write('.memory/user_prefs.md', memoryFile('User prefs', 'Prefers small commits', 'user'));
    const commit = repo.git(['commit', '-q', '-a', '-m', 'edit prefs']);
    expect(commit.code).toBe(0);
    expect(committedPaths(repo)).toEqual(['.memory/MEMORY.md', '.memory/user_prefs.md']);
    expect(repo.gitOk(['show', 'HEAD:.memory/MEMORY.md'])).toContain('— Prefers small commits');
    expect(repo.gitOk(['status', '--porcelain'])).toBe('');
  });

  it('works with `git commit PATH` (a temporary index): MEMORY.md committed and left staged in the real index', async () => {
    const repo = track(await installedRepo());
    repo.write('.memory/user_prefs.md', memoryFile('User prefs', 'Prefers small commits', 'user'));
    repo.write('README.md', '# project\n\nnot part of this commit\n');
    const commit = repo.git(['commit', '-q', '-m', 'only this path', '--', 'user_prefs.md'], join(repo.top, '.memory'));
    expect(commit.stderr).toBe('memctx: MEMORY.md rebuilt and staged (1 file)\n');
    expect(commit.code).toBe(0);
    expect(committedPaths(repo)).toEqual(['.memory/MEMORY.md', '.memory/user_prefs.md']);
    expect(repo.gitOk(['show', 'HEAD:.memory/MEMORY.md'])).toContain('— Prefers small commits');
    // Nothing staged that would undo MEMORY.md in the next commit; README stays as it was, unstaged.
    expect(repo.gitOk(['status', '--porcelain'])).toBe(' M README.md\n');
  });

  it('rebuilds when a memory file is renamed out of the memory directory', async () => {
    const repo = track(await installedRepo());
    repo.gitOk(['mv', '.memory/user_prefs.md', 'prefs.md']);
    const commit = repo.git(['commit', '-q', '-m', 'move prefs out']);
    expect(commit.code).toBe(0);
    expect(committedPaths(repo)).toEqual(['.memory/MEMORY.md', '.memory/user_prefs.md', 'prefs.md']);
    expect(repo.gitOk(['show', 'HEAD:.memory/MEMORY.md'])).not.toContain('User prefs');
  });

  it('stages MEMORY.md after `memctx add` rewrote it (edits memctx made itself are not hand edits)', async () => {
    const repo = track(await installedRepo());
    const add = await repo.memctx(['add', 'project_auth', '--name', 'Auth refactor', '--description', 'Backend auth migration status', '--type', 'project', '--body', 'Moving to JWT.']);
    expect(add.code).toBe(0);
    repo.gitOk(['add', '.memory/project_auth.md']);
    expect(repo.gitOk(['diff', '--name-only'])).toBe('.memory/MEMORY.md\n');
    const commit = repo.git(['commit', '-q', '-m', 'add via memctx']);
    expect(commit.code).toBe(0);
    expect(committedPaths(repo)).toEqual(['.memory/MEMORY.md', '.memory/project_auth.md']);
    expect(repo.gitOk(['status', '--porcelain'])).toBe('');
  });

  it('stops the commit (exit 1, a message) when MEMORY.md has unstaged hand edits, and keeps them', async () => {
    const repo = track(await installedRepo());
    addAuthMemory(repo);
    const indexFile = join(repo.top, '.memory/MEMORY.md');
    const edited = read(indexFile).replace('# Memory', '# Memory\n\nRead the auth notes first.');
    writeFileSync(indexFile, edited);
    const commits = headCount(repo);
    const commit = repo.git(['commit', '-m', 'should stop']);
    expect(commit.code).toBe(1);
    expect(commit.stderr).toContain('memctx: error: .memory/MEMORY.md: MEMORY.md has unstaged edits that a rebuild would overwrite; commit stopped');
    expect(commit.stderr).toContain('hint: stage them (git add :/.memory/MEMORY.md) or discard them (git restore :/.memory/MEMORY.md), then commit again');
    expect(headCount(repo)).toBe(commits);
    expect(read(indexFile)).toBe(edited);
    expect(repo.gitOk(['diff', '--cached', '--name-only'])).toBe('.memory/project_auth.md\n');
    // The same check run by hand, from a subdirectory.
    repo.write('sub/x.txt', 'x\n');
    const direct = await repo.memctx(['index', '--staged'], join(repo.top, 'sub'));
    expect(direct.code).toBe(1);
    expect(direct.stderr).toContain('MEMORY.md has unstaged edits');
    // Following the hint lets the commit through with the hand edit kept.
    repo.gitOk(['add', ':/.memory/MEMORY.md'], join(repo.top, 'sub'));
    expect(repo.git(['commit', '-q', '-m', 'now it goes']).code).toBe(0);
    const committed = repo.gitOk(['show', 'HEAD:.memory/MEMORY.md']);
    expect(committed).toContain('Read the auth notes first.');
    expect(committed.split('\n')).toContain(AUTH_LINE);
  });

  it('stops the commit when a hand edit inside the generated block is unstaged', async () => {
    const repo = track(await installedRepo());
    addAuthMemory(repo);
    const indexFile = join(repo.top, '.memory/MEMORY.md');
    writeFileSync(indexFile, read(indexFile).replace('How the user likes to work', 'hand-written description'));
    const commit = repo.git(['commit', '-m', 'should stop']);
    expect(commit.code).toBe(1);
    expect(commit.stderr).toContain('MEMORY.md has unstaged edits');
    expect(read(indexFile)).toContain('hand-written description');
  });

  it('stops a commit that stages a broken memory file, but only warns about one already committed', async () => {
    const repo = track(await installedRepo());
    repo.write('.memory/broken.md', '---\nname: [unclosed\ntype: project\n---\nbody\n');
    repo.gitOk(['add', '.memory/broken.md']);
    const commits = headCount(repo);
    const stopped = repo.git(['commit', '-m', 'broken']);
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toMatch(/\.memory\/broken\.md:\d+: error: /);
    expect(stopped.stderr).toContain('memctx: commit stopped: fix the memory file above');
    expect(headCount(repo)).toBe(commits);
    // Committed anyway (--no-verify), the broken file no longer stops other memory commits.
    repo.gitOk(['commit', '-q', '--no-verify', '-m', 'broken anyway']);
    addAuthMemory(repo);
    const next = repo.git(['commit', '-m', 'auth']);
    expect(next.code).toBe(0);
    expect(next.stderr).toMatch(/\.memory\/broken\.md:\d+: warning: /);
    expect(repo.gitOk(['show', 'HEAD:.memory/MEMORY.md']).split('\n')).toContain(AUTH_LINE);
  });

  it('warns when MEMORY.md lists a memory file that is not tracked', async () => {
    const repo = track(await installedRepo());
    repo.write('.memory/draft.md', memoryFile('Draft', 'Not added yet'));
    addAuthMemory(repo);
    const commit = repo.git(['commit', '-m', 'auth']);
    expect(commit.code).toBe(0);
    expect(commit.stderr).toContain('warning: .memory/draft.md is listed in MEMORY.md but not tracked by git; `git add` it too');
  });

  it('finds memctx in node_modules/.bin when the recorded copy is gone, and stops the commit when there is none', async () => {
    const repo = track(await installedRepo());
    writeFileSync(hookPath(repo), read(hookPath(repo)).replace(/^bin='.*'$/m, "bin='/nonexistent/memctx.js'"));
    const shim = repo.write('node_modules/.bin/memctx', `#!/bin/sh\necho shim used >&2\nexec '${process.execPath}' '${BIN}' "$@"\n`);
    chmodSync(shim, 0o755);
    repo.write('.gitignore', 'node_modules/\n');
    repo.gitOk(['add', '.gitignore']);
    addAuthMemory(repo);
    const commit = repo.git(['commit', '-m', 'via shim']);
    expect(commit.code).toBe(0);
    expect(commit.stderr).toContain('shim used');
    expect(committedPaths(repo)).toEqual(['.gitignore', '.memory/MEMORY.md', '.memory/project_auth.md']);

    removeDir(join(repo.top, 'node_modules'));
    // A PATH with git and sh but no memctx (and no node).
    const path = ['/usr/bin', '/bin'];
    if (path.some((dir) => existsSync(join(dir, 'memctx')))) return;
    repo.write('.memory/project_auth.md', memoryFile('Auth refactor', 'Changed again'));
    repo.gitOk(['add', '.memory/project_auth.md']);
    const commits = headCount(repo);
    const missing = repo.git(['commit', '-m', 'no memctx'], repo.top, { PATH: path.join(':') });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('memctx pre-commit hook: cannot find memctx (not at /nonexistent/memctx.js, not in node_modules/.bin, not on PATH).');
    expect(headCount(repo)).toBe(commits);
  });
});
