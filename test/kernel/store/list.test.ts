import { existsSync, mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
import { listEntries } from '../../../src/kernel/store/list.js';
import { withMemoryLock } from '../../../src/kernel/store/write.js';

function tree(paths: string[]): string {
  const root = tempDir('memctx-walk-');
  for (const path of paths) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), 'x\n');
  }
  return root;
}

const TRICKY = [
  'a.md', 'B.MD', 'c.Md', '.h.md', '.md', 'MEMORY.md', 'memory.md', 'sub/MEMORY.md', 'Templates/t.md', 'templates/u.md',
  'sub/templates/v.md', 'Archive/o.md', 'archive/p.md', 'ARCHIVE/r.md', 'sub/archive/q.md', '.memctx/x.md', '.git/y.md',
  'sub/.hid/z.md', 'dir.md/inner.md', 'x.md.1', 'sp ace/é.md', 'a[b].md', 'sub/deep/er/f.md', 'n.markdown',
];

describe('listEntries (a plain directory walk)', () => {
  it('lists exactly what the fast-glob listing it replaced listed, symlinks flagged and not followed', () => {
    const root = tree(TRICKY);
    symlinkSync(join(root, 'sub'), join(root, 'linkdir'));
    symlinkSync(join(root, 'sub'), join(root, 'linkdir.md'));
    symlinkSync(join(root, 'a.md'), join(root, 'ln.md'));
    symlinkSync('/nonexistent', join(root, 'dangling.md'));
    for (const includeArchive of [false, true]) {
      const ignore = ['.memctx/**', 'templates/**', 'MEMORY.md', ...(includeArchive ? [] : ['archive/**'])];
      const globbed = fg
        .sync('**/*.md', { cwd: root, ignore, dot: false, onlyFiles: false, followSymbolicLinks: false, caseSensitiveMatch: false, objectMode: true })
        .filter((e) => e.dirent.isFile() || e.dirent.isSymbolicLink())
        .map((e) => ({ path: e.path, symlink: e.dirent.isSymbolicLink() }))
        .sort((a, b) => (a.path < b.path ? -1 : 1));
      expect(listEntries(root, { includeArchive })).toEqual(globbed);
    }
    expect(listEntries(root).map((e) => e.path)).toEqual([
      'B.MD', 'a.md', 'a[b].md', 'c.Md', 'dangling.md', 'dir.md/inner.md', 'linkdir.md', 'ln.md', 'sp ace/é.md',
      'sub/MEMORY.md', 'sub/archive/q.md', 'sub/deep/er/f.md', 'sub/templates/v.md',
    ]);
  });

  it('reports an unreadable root as `.` and lists nothing else', () => {
    const root = tree(['a.md']);
    const denied = Object.assign(new Error('EACCES'), { code: 'EACCES' });
    expect(listEntries(root, { readdirSync: (() => { throw denied; }) as never })).toEqual([{ path: '.', symlink: false, error: 'EACCES' }]);
  });
});

describe('leftover temporary files', () => {
  it('a locked write removes only memctx temp files older than the stale time; users\' numbered files survive', async () => {
    const root = tree([
      'MEMORY.md', 'a.md', 'notes.md.1', 'design.md.20240101', 'attachments/report.md.2', '.memctx/pack-cache.json.77',
      '.memctx-tmp-1-aa', 'sub/.memctx-tmp-2-bb', '.memctx/.memctx-tmp-3-cc', '.memctx-tmp-4-young', 'memctx-tmp-5',
    ]);
    const old = new Date(Date.now() - 60_000);
    for (const p of ['.memctx-tmp-1-aa', 'sub/.memctx-tmp-2-bb', '.memctx/.memctx-tmp-3-cc', 'notes.md.1', 'memctx-tmp-5']) utimesSync(join(root, p), old, old);
    await withMemoryLock(root, async () => {});
    const present = (p: string) => existsSync(join(root, p));
    expect(['.memctx-tmp-1-aa', 'sub/.memctx-tmp-2-bb', '.memctx/.memctx-tmp-3-cc'].filter(present)).toEqual([]);
    expect(['MEMORY.md', 'a.md', 'notes.md.1', 'design.md.20240101', 'attachments/report.md.2', '.memctx/pack-cache.json.77', '.memctx-tmp-4-young', 'memctx-tmp-5'].filter((p) => !present(p))).toEqual([]);
  });
});
