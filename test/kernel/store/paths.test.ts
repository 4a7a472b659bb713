import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { MemctxError } from '../../../src/kernel/errors.js';
import { isIndexPath, resolveMemoryPath } from '../../../src/kernel/store/paths.js';
import { tempDir } from '../../helpers/cli.js';

let base: string;
let root: string;

beforeAll(() => {
  base = tempDir('memctx-paths-');
  root = join(base, '.memory');
  mkdirSync(join(root, 'sessions'), { recursive: true });
  mkdirSync(join(base, 'outside'));
  writeFileSync(join(base, 'outside', 'secret.md'), 'secret\n');
  writeFileSync(join(root, 'a.md'), 'a\n');
  symlinkSync(join(base, 'outside', 'secret.md'), join(root, 'file-link.md'));
  symlinkSync(join(base, 'outside'), join(root, 'dir-link'));
  symlinkSync(join(base, 'outside', 'not-yet.md'), join(root, 'dangling.md'));
  symlinkSync(join(base, 'no-such-dir'), join(root, 'dangling-dir'));
  symlinkSync(join(root, 'loop-b.md'), join(root, 'loop-a.md'));
  symlinkSync(join(root, 'loop-a.md'), join(root, 'loop-b.md'));
  symlinkSync(join(root, 'a.md'), join(root, 'inside-link.md'));
  symlinkSync(join(root, 'sessions'), join(root, 'sessions-link'));
  symlinkSync(root, join(base, 'memory-link'));
});

function refusal(input: string, at = root): string {
  try {
    resolveMemoryPath(at, input);
  } catch (err) {
    expect(err).toBeInstanceOf(MemctxError);
    expect((err as MemctxError).exitCode).toBe(2);
    return (err as MemctxError).message;
  }
  throw new Error(`"${input}" was accepted`);
}

describe('resolveMemoryPath', () => {
  it('resolves plain paths and appends .md', () => {
    expect(resolveMemoryPath(root, 'a')).toEqual({ abs: join(root, 'a.md'), rel: 'a.md' });
    expect(resolveMemoryPath(root, './sessions//x.md')).toEqual({ abs: join(root, 'sessions', 'x.md'), rel: 'sessions/x.md' });
    expect(resolveMemoryPath(root, 'notes.MD').rel).toBe('notes.MD');
  });

  it.each([
    ['../outside/secret.md', 'leaves the memory directory (`..`)'],
    ['sessions/../../outside/secret.md', 'leaves the memory directory (`..`)'],
    ['sessions\\..\\..\\x.md', 'leaves the memory directory (`..`)'],
    ['%2e%2e/outside/secret.md', 'URL-encoded'],
    ['%2E%2E%2Foutside', 'URL-encoded'],
    ['..%2fsecret.md', 'URL-encoded'],
    ['a%00.md', 'URL-encoded'],
    ['/etc/passwd', 'is absolute'],
    ['C:\\Windows\\x.md', 'is absolute'],
    ['\\\\server\\share\\x.md', 'is absolute'],
    ['a\0.md', 'NUL byte'],
    ['', 'is empty'],
    ['   ', 'is empty'],
    ['.', 'names the memory directory itself'],
    ['./', 'names the memory directory itself'],
  ])('refuses %j', (input, why) => {
    expect(refusal(input)).toContain(why);
  });

  it('refuses a symlinked file whose target lies outside', () => {
    expect(refusal('file-link.md')).toContain('symbolic link to outside');
  });

  it('refuses paths through a symlinked directory that lies outside, existing or new', () => {
    expect(refusal('dir-link/secret.md')).toContain('symbolic link to outside');
    expect(refusal('dir-link/new.md')).toContain('symbolic link to outside');
  });

  it('refuses dangling symlinks that point outside', () => {
    expect(refusal('dangling.md')).toContain('symbolic link to outside');
    expect(refusal('dangling-dir/x.md')).toContain('symbolic link to outside');
  });

  it('refuses a symlink loop', () => {
    expect(refusal('loop-a.md')).toContain('symbolic link loop');
  });

  it('accepts symlinks that stay inside', () => {
    expect(resolveMemoryPath(root, 'inside-link.md').rel).toBe('inside-link.md');
    expect(resolveMemoryPath(root, 'sessions-link/x.md').rel).toBe('sessions-link/x.md');
  });

  it('works when the memory directory itself is reached through a symlink', () => {
    const linked = join(base, 'memory-link');
    expect(resolveMemoryPath(linked, 'a.md')).toEqual({ abs: join(linked, 'a.md'), rel: 'a.md' });
    expect(refusal('file-link.md', linked)).toContain('symbolic link to outside');
  });

  it('knows MEMORY.md in any case', () => {
    expect(isIndexPath('MEMORY.md')).toBe(true);
    expect(isIndexPath('memory.md')).toBe(true);
    expect(isIndexPath('sessions/MEMORY.md')).toBe(false);
  });
});

describe('isInside', () => {
  it('tells names that start with two dots from parent references', async () => {
    const { isInside } = await import('../../../src/kernel/store/paths.js');
    expect(isInside('/m', '/m')).toBe(true);
    expect(isInside('/m', '/m/..notes.md')).toBe(true);
    expect(isInside('/m', '/m/a/b.md')).toBe(true);
    expect(isInside('/m', '/m/../x.md')).toBe(false);
    expect(isInside('/m', '/x/m.md')).toBe(false);
    expect(isInside('/m', '/mm/a.md')).toBe(false);
  });
});
