// Issue 31 item 1: one directory walker. The repository without git and the memory directory's files
// are listed by the kernel's walker (store/list.ts walkTree), as fast-glob listed them before: regular
// files only (no link followed or listed), dot-files in, .git and node_modules out at any depth.
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
import { makeRepo } from '../../helpers/repo.js';
import { listDirFiles, listRepoFiles } from '../../../src/kernel/sources/repo.js';

describe('the one walker', () => {
  const root = tempDir('memctx-walk-');
  for (const dir of ['a/.git', 'b/node_modules', '.memctx', 'c/.memctx']) mkdirSync(join(root, dir), { recursive: true });
  for (const file of ['x', '.h', 'a/.git/y', 'a/w', 'b/node_modules/z', '.memctx/q', 'c/.memctx/r']) writeFileSync(join(root, file), '');
  symlinkSync('x', join(root, 'lnk'));
  symlinkSync('a', join(root, 'dlnk'));

  it('a repository without git: files, dot-files too, no .git or node_modules at any depth, no links', () => {
    expect(listRepoFiles({ root, git: false }, {}).files.sort()).toEqual(['.h', '.memctx/q', 'a/w', 'c/.memctx/r', 'x']);
  });

  it("a memory directory's files: all but the top .memctx folder, no links", () => {
    expect(listDirFiles(root).sort()).toEqual(['.h', 'a/.git/y', 'a/w', 'b/node_modules/z', 'c/.memctx/r', 'x']);
  });
});

describe("git's listing", () => {
  it('tracked and untracked files, minus deletions, plus ignored files and folders: renames, a submodule, odd names', async () => {
    const repo = await makeRepo();
    repo.write('.gitignore', 'dist/\n*.log\n');
    for (const rel of ['a b.md', 'gone.md', 'moved.md', 'staged-move.md', 'naïve.md', 'line\nbreak.md', 'src/x.ts']) repo.write(rel, `${rel}\n`);
    const sub = join(repo.top, 'sub');
    mkdirSync(sub);
    repo.gitOk(['init', '-q'], sub);
    writeFileSync(join(sub, 'inner.md'), 'inner\n');
    repo.gitOk(['add', 'inner.md'], sub);
    repo.gitOk(['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'sub'], sub);
    repo.gitOk(['add', '-A']);
    repo.gitOk(['commit', '-q', '-m', 'files']);
    rmSync(join(repo.top, 'gone.md'));
    renameSync(join(repo.top, 'moved.md'), join(repo.top, 'moved-here.md'));
    repo.gitOk(['mv', 'staged-move.md', 'staged-moved.md']);
    repo.gitOk(['rm', '-q', '--cached', 'src/x.ts']);
    for (const rel of ['new file.md', 'dist/out.js', 'debug.log', 'src/y.ts']) repo.write(rel, 'x\n');
    const listing = listRepoFiles({ root: repo.top, git: true }, repo.env);
    expect(listing.git).toBe(true);
    expect(listing.files.sort()).toEqual(['.gitignore', 'README.md', 'a b.md', 'debug.log', 'line\nbreak.md', 'moved-here.md', 'naïve.md', 'new file.md', 'src/x.ts', 'src/y.ts', 'staged-moved.md', 'sub']);
    expect(listing.ignoredDirs).toEqual(['dist/']);
  });
});
