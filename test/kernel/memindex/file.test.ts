import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
import { indexPath, readIndexFile, writeIndexFile } from '../../../src/kernel/memindex/file.js';

function memory(): string {
  const root = join(tempDir(), '.memory');
  mkdirSync(root);
  return root;
}

describe('readIndexFile and writeIndexFile', () => {
  it('read nothing before MEMORY.md exists, then what was written', async () => {
    const root = memory();
    expect(indexPath(root)).toBe(join(root, 'MEMORY.md'));
    expect(readIndexFile(root)).toBeUndefined();
    await writeIndexFile(root, '# Memory\n- [A](a.md)\n');
    expect(readIndexFile(root)).toBe('# Memory\n- [A](a.md)\n');
  });

  it('follow a link that stays inside the memory directory', async () => {
    const root = memory();
    writeFileSync(join(root, 'real.md'), '# Real\n');
    symlinkSync('real.md', join(root, 'MEMORY.md'));
    expect(readIndexFile(root)).toBe('# Real\n');
  });

  it('refuse a link to outside, to read and to write, and leave its target alone', async () => {
    const root = memory();
    const outside = join(root, '..', 'outside.md');
    writeFileSync(outside, 'secret\n');
    symlinkSync(outside, join(root, 'MEMORY.md'));
    const refusal = 'MEMORY.md is a symbolic link to outside the memory directory; not read or written';
    expect(() => readIndexFile(root)).toThrow(refusal);
    await expect(writeIndexFile(root, 'x')).rejects.toThrow(refusal);
    expect(readFileSync(outside, 'utf8')).toBe('secret\n');
  });

  it('name MEMORY.md and the line of invalid UTF-8', () => {
    const root = memory();
    writeFileSync(join(root, 'MEMORY.md'), Buffer.concat([Buffer.from('# Memory\n'), Buffer.from([0xff])]));
    let err: (Error & { line?: number; file?: string }) | undefined;
    try {
      readIndexFile(root);
    } catch (e) {
      err = e as Error;
    }
    expect([err?.message, err?.line, err?.file]).toEqual(['MEMORY.md: invalid UTF-8 (byte offset 9)', 2, join(root, 'MEMORY.md')]);
  });
});
