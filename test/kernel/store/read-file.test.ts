// store/read-file.ts: reading a regular file or a stream, refusing what would block, leak or never end.
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { NotReadable, readRegularFile, readStreamBytes } from '../../../src/kernel/store/read-file.js';
import { tempDir } from '../../helpers/cli.js';

/** The error `read` throws, as message, file and hint. */
function refusal(read: () => unknown): { message: string; file?: string; hint?: string } {
  try {
    read();
  } catch (err) {
    expect(err).toBeInstanceOf(NotReadable);
    const { message, file, hint } = err as NotReadable;
    return { message, file, hint };
  }
  throw new Error('not refused');
}

describe('readRegularFile', () => {
  it("a file's bytes, exactly", () => {
    const dir = tempDir();
    const bytes = Buffer.from([0xef, 0xbb, 0xbf, 0x61, 0x0d, 0x0a, 0x00, 0xff]);
    writeFileSync(join(dir, 'a.bin'), bytes);
    expect(readRegularFile(join(dir, 'a.bin')).equals(bytes)).toBe(true);
    writeFileSync(join(dir, 'empty'), '');
    expect(readRegularFile(join(dir, 'empty')).length).toBe(0);
  });

  it('refuses a missing file, a directory, a FIFO (without blocking) and a file over the limit, naming it as asked', () => {
    const dir = tempDir();
    expect(refusal(() => readRegularFile(join(dir, 'gone.jsonl'), { name: 'gone.jsonl', what: 'transcript' }))).toEqual({ message: 'no such transcript', file: 'gone.jsonl', hint: 'check the path' });
    mkdirSync(join(dir, 'folder'));
    expect(refusal(() => readRegularFile(join(dir, 'folder'), { name: 'folder' }))).toEqual({ message: 'is a directory, not a regular file; not read', file: 'folder', hint: 'pass a regular file' });
    expect(spawnSync('mkfifo', [join(dir, 'pipe')]).status).toBe(0);
    expect(refusal(() => readRegularFile(join(dir, 'pipe'), { name: 'pipe', what: 'transcript' }))).toEqual({ message: 'is a FIFO (named pipe), not a regular transcript; not read', file: 'pipe', hint: 'pass a regular transcript (or - to read stdin)' });
    writeFileSync(join(dir, 'big'), Buffer.alloc(3 * 1024 * 1024));
    expect(refusal(() => readRegularFile(join(dir, 'big'), { maxBytes: 1024 * 1024 })).message).toBe('is 3 MB, over the 1 MB limit for a file; not read');
  });

  it('inside the memory directory: a link to a file inside is read; one that leads outside is not', () => {
    const base = tempDir();
    const root = join(base, '.memory');
    mkdirSync(join(root, 'sub'), { recursive: true });
    writeFileSync(join(root, 'sub/real.md'), 'inside\n');
    writeFileSync(join(base, 'secret.md'), 'outside\n');
    symlinkSync(join(root, 'sub/real.md'), join(root, 'alias.md'));
    symlinkSync(join(base, 'secret.md'), join(root, 'leak.md'));
    symlinkSync(base, join(root, 'up'));
    expect(readRegularFile(join(root, 'alias.md'), { inside: root }).toString()).toBe('inside\n');
    expect(refusal(() => readRegularFile(join(root, 'leak.md'), { inside: root, name: 'leak.md' })).message).toBe('file was reached through a folder that now leads outside the memory directory (a symbolic link); not read');
    expect(refusal(() => readRegularFile(join(root, 'up/secret.md'), { inside: root })).message).toMatch(/leads outside the memory directory/);
    expect(readRegularFile(join(root, 'leak.md')).toString()).toBe('outside\n');
  });
});

describe('readStreamBytes', () => {
  it('all of a stream, chunks joined', async () => {
    expect((await readStreamBytes(Readable.from([Buffer.from('ab'), 'cd']))).toString()).toBe('abcd');
  });

  it('refuses more than the limit, naming the stream', async () => {
    await expect(readStreamBytes(Readable.from([Buffer.alloc(600_000), Buffer.alloc(600_000)]), 1024 * 1024, 'stdin')).rejects.toMatchObject({ message: 'more than 1 MB on stdin; not read', hint: 'pass a smaller input, or a file' });
  });

  it('a stream never closed is refused after the timeout, and destroyed', async () => {
    const open = new PassThrough();
    open.write('partial');
    await expect(readStreamBytes(open, 1024, 'stdin', 50)).rejects.toMatchObject({ message: 'stdin was not closed within 0.05 s; not read', hint: 'the program running memctx must close its end of the pipe' });
    expect(open.destroyed).toBe(true);
  });
});
