/**
 * A second process swapping a file or folder for a symbolic link to outside while memctx writes or
 * reads (issue 20, item 2). The swap is made at an exact point of the call (a barrier on the fs
 * function memctx calls there), never by racing timers.
 */
import fs, { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../../helpers/cli.js';
import { runMemctx } from '../../../helpers/run.js';

const dirs: string[] = [];
const restores: Array<() => void> = [];
afterEach(() => {
  restores.splice(0).reverse().forEach((restore) => restore());
  dirs.splice(0).forEach(removeDir);
});

type FsName = 'openSync' | 'renameSync' | 'linkSync';

/** Run `before` once, on the first call of fs[name] whose first argument matches, then call it. */
function barrier(name: FsName, matches: (path: string) => boolean, before: () => void): void {
  const original = fs[name] as (...args: unknown[]) => unknown;
  let done = false;
  (fs as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
    if (!done && typeof args[0] === 'string' && matches(args[0])) {
      done = true;
      before();
    }
    return original.apply(fs, args);
  };
  syncBuiltinESMExports();
  restores.push(() => {
    (fs as unknown as Record<string, unknown>)[name] = original;
    syncBuiltinESMExports();
  });
}

const note = (name: string, body = 'body') => `---\nname: ${name}\ndescription: about ${name}\ntype: project\n---\n${body}\n`;

function memoryDir() {
  const cwd = tempDir();
  dirs.push(cwd);
  const root = join(cwd, '.memory');
  mkdirSync(join(root, 'sub'), { recursive: true });
  writeFileSync(join(root, 'MEMORY.md'), '# Memory\n');
  writeFileSync(join(root, 'sub', 'x.md'), note('x'));
  const outside = join(cwd, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'x.md'), note('outside', 'SECRET outside text'));
  const swapSub = () => {
    renameSync(join(root, 'sub'), join(root, 'sub-was'));
    symlinkSync(outside, join(root, 'sub'));
  };
  return { cwd, root, outside, swapSub };
}

const isTemp = (path: string) => path.includes('.memctx-tmp-');

describe('writes never follow a folder or file swapped for a link mid-call', () => {
  it('edit: sub/ swapped for a link at the moment the temporary file is opened → refused, nothing written outside', async () => {
    const { cwd, outside, swapSub } = memoryDir();
    barrier('openSync', isTemp, swapSub);
    const result = await runMemctx(['edit', 'sub/x.md', '--old', 'body', '--new', 'changed'], { cwd });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/sub\/x\.md was not changed: a folder on its path was replaced/);
    expect(readdirSync(outside)).toEqual(['x.md']);
    expect(readFileSync(join(outside, 'x.md'), 'utf8')).toBe(note('outside', 'SECRET outside text'));
  });

  it('add: sub/ swapped right before the rename → the rename fails, nothing lands outside', async () => {
    const { cwd, outside, swapSub } = memoryDir();
    barrier('renameSync', isTemp, swapSub);
    const result = await runMemctx(['add', 'sub/new.md', '--name', 'n', '--description', 'd', '--type', 'user'], { cwd });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/sub\/new\.md was not changed/);
    expect(readdirSync(outside)).toEqual(['x.md']);
  });

  it('edit: the file itself swapped for a link to outside before the rename → the link is replaced, the outside file untouched', async () => {
    const { cwd, root, outside } = memoryDir();
    barrier('renameSync', isTemp, () => {
      renameSync(join(root, 'sub', 'x.md'), join(root, 'x-was.md'));
      symlinkSync(join(outside, 'x.md'), join(root, 'sub', 'x.md'));
    });
    const result = await runMemctx(['edit', 'sub/x.md', '--old', 'body', '--new', 'changed'], { cwd });
    expect(result.code).toBe(0);
    expect(readFileSync(join(outside, 'x.md'), 'utf8')).toBe(note('outside', 'SECRET outside text'));
    expect(fs.lstatSync(join(root, 'sub', 'x.md')).isSymbolicLink()).toBe(false);
    expect(readFileSync(join(root, 'sub', 'x.md'), 'utf8')).toMatch(/\nchanged\n$/);
  });

  it('mv: sub/ swapped for a link right before link() → refused, no file linked in or out', async () => {
    const { cwd, root, outside, swapSub } = memoryDir();
    writeFileSync(join(root, 'top.md'), note('top'));
    barrier('linkSync', (p) => p.endsWith('top.md'), swapSub);
    const result = await runMemctx(['mv', 'top.md', 'sub/moved.md'], { cwd });
    expect(result.code).toBe(2);
    expect(readdirSync(outside)).toEqual(['x.md']);
    expect(existsSync(join(root, 'top.md'))).toBe(true);
  });

  it('mv: the source folder swapped before link() → the outside file is not linked into the memory directory', async () => {
    const { cwd, root, swapSub } = memoryDir();
    barrier('linkSync', (p) => p.endsWith('sub/x.md'), swapSub);
    const result = await runMemctx(['mv', 'sub/x.md', 'moved.md'], { cwd });
    expect(result.code).toBe(2);
    expect(existsSync(join(root, 'moved.md'))).toBe(false);
    expect(readFileSync(join(root, 'sub-was', 'x.md'), 'utf8')).toBe(note('x'));
  });
});

describe('reads open the file they checked', () => {
  it('show: the file swapped for a link to outside as it is opened → not read', async () => {
    const { cwd, root, outside } = memoryDir();
    barrier('openSync', (p) => p.endsWith('sub/x.md'), () => {
      renameSync(join(root, 'sub', 'x.md'), join(root, 'x-was.md'));
      symlinkSync(join(outside, 'x.md'), join(root, 'sub', 'x.md'));
    });
    const result = await runMemctx(['show', 'sub/x.md'], { cwd });
    expect(result.code).toBe(2);
    expect(result.stdout + result.stderr).not.toContain('SECRET');
  });

  it('show: sub/ swapped for a link to outside as the file is opened → not read', async () => {
    const { cwd, swapSub } = memoryDir();
    barrier('openSync', (p) => p.endsWith('sub/x.md'), swapSub);
    const result = await runMemctx(['show', 'sub/x.md'], { cwd });
    expect(result.code).toBe(2);
    expect(result.stdout + result.stderr).not.toContain('SECRET');
    expect(result.stderr).toMatch(/symbolic link/);
  });
});
