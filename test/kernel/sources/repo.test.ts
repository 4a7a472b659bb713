// Issue 31 item 1: one directory walker. The repository without git and the memory directory's files
// are listed by the kernel's walker (store/list.ts walkTree), as fast-glob listed them before: regular
// files only (no link followed or listed), dot-files in, .git and node_modules out at any depth.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
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
