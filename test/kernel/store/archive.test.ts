import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { moveToArchive } from '../../../src/kernel/store/archive.js';
import { removeDir, tempDir } from '../../helpers/cli.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

describe('moveToArchive', () => {
  it('moves a file under archive/ keeping its relative path', () => {
    const root = tempDir();
    dirs.push(root);
    mkdirSync(join(root, 'tasks'));
    writeFileSync(join(root, 'tasks', 'a.md'), 'a');
    expect(moveToArchive(root, 'tasks/a.md')).toEqual({ path: 'tasks/a.md', to: 'archive/tasks/a.md', moved: true });
    expect(existsSync(join(root, 'tasks', 'a.md'))).toBe(false);
    expect(existsSync(join(root, 'archive', 'tasks', 'a.md'))).toBe(true);
  });

  it('never writes through an archive/ that is a symbolic link out of the memory directory', () => {
    const root = tempDir();
    const outside = tempDir('memctx-outside-');
    dirs.push(root, outside);
    writeFileSync(join(root, 'a.md'), 'a');
    symlinkSync(outside, join(root, 'archive'));
    const move = moveToArchive(root, 'a.md');
    expect(move).toMatchObject({ moved: false, skipped: expect.stringContaining('symbolic link') });
    expect(existsSync(join(root, 'a.md'))).toBe(true);
    expect(readdirSync(outside)).toEqual([]);
  });
});
