/**
 * Reading files that users name or that sit in the memory directory: regular files only, opened so
 * that a FIFO or device can never block (O_NONBLOCK), and never more than a size cap. Every read of
 * a user-supplied or memory path goes through here, so nothing hangs on a FIFO and nothing grows
 * without bound.
 */
import type { Stats } from 'node:fs';
import { dirname } from 'node:path';
import { MemctxError } from '../errors.js';
import { isInside } from './paths.js';
// node:fs without an ES module import (kernel/cli/context.ts); opens go through `fs.` at each call, where a test swaps a path.
const fs = process.getBuiltinModule('node:fs');
const { closeSync, constants, fstatSync, lstatSync, readSync, realpathSync } = fs;

/** The most memctx reads of a transcript, a --from file or stdin as a whole. */
export const MAX_INPUT_BYTES = 64 * 1024 * 1024;

const mb = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;

/** What kind of file this is, for a refusal ("a FIFO", "a directory"). */
export function fileKind(stat: Stats): string {
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** Why a path was not read: the file, what it is, and what to do. */
export class NotReadable extends MemctxError {}

/**
 * Open a regular file for reading. A FIFO, device, socket or directory is refused (the open itself
 * does not block: O_NONBLOCK), as is a file over `maxBytes`.
 */
function openRegularFile(path: string, options: ReadOptions = {}): { fd: number; stat: Stats } {
  const name = options.name ?? path;
  const what = options.what ?? 'file';
  let fd: number;
  const opened = options.inside === undefined ? path : linkTarget(path);
  try {
    fd = fs.openSync(opened, constants.O_RDONLY | constants.O_NONBLOCK | (options.inside === undefined ? 0 : constants.O_NOFOLLOW));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new NotReadable(`no such ${what}`, { file: name, hint: 'check the path' });
    if (code === 'ELOOP') throw new NotReadable(`${what} became a symbolic link while it was read; not read`, { file: name, hint: 'replace the link with a regular file inside the memory directory' });
    if (code === 'EISDIR') throw new NotReadable(`is a directory, not a ${what}`, { file: name, hint: `pass one ${what}` });
    throw new NotReadable(`cannot read the ${what} (${code ?? (err as Error).message})`, { file: name, hint: 'check the path and its permissions' });
  }
  const stat = fstatSync(fd);
  if (options.inside !== undefined && !openedInside(options.inside, opened, stat)) {
    closeSync(fd);
    throw new NotReadable(`${what} was reached through a folder that now leads outside the memory directory (a symbolic link); not read`, { file: name, hint: 'replace the link with a real folder inside the memory directory' });
  }
  if (!stat.isFile()) {
    closeSync(fd);
    throw new NotReadable(`is ${fileKind(stat)}, not a regular ${what}; not read`, { file: name, hint: `pass a regular ${what}${what === 'transcript' ? ' (or - to read stdin)' : ''}` });
  }
  if (options.maxBytes !== undefined && stat.size > options.maxBytes) {
    closeSync(fd);
    throw new NotReadable(`is ${mb(stat.size)}, over the ${mb(options.maxBytes)} limit for a ${what}; not read`, { file: name, hint: `pass a smaller ${what}` });
  }
  return { fd, stat };
}

export interface ReadOptions {
  name?: string;
  maxBytes?: number;
  what?: string;
  /**
   * The memory directory, for a memory file: the file is opened with O_NOFOLLOW (a link at the path
   * is followed only by hand, to the target it has now), and the open descriptor is checked to be
   * the file at that path in a folder that resolves inside this directory.
   */
  inside?: string;
}

/** Where a symbolic link at `path` leads now (its real path); `path` itself when it is no link. */
export function linkTarget(path: string): string {
  try {
    return lstatSync(path).isSymbolicLink() ? realpathSync.native(path) : path;
  } catch {
    return path;
  }
}

/**
 * True when the descriptor opened at `path` (stat `opened`) is the file now at that path, in a
 * folder whose real path is inside `root` (not checked when root is undefined). Node has no openat(), so a folder swapped for a link
 * between open() and this check is caught here, after the fact; one swapped and swapped back in that
 * interval shows as another file at the path (the inode differs) and is caught too.
 */
export function openedInside(root: string | undefined, path: string, opened: Stats): boolean {
  try {
    const now = lstatSync(path);
    if (now.dev !== opened.dev || now.ino !== opened.ino) return false;
    return root === undefined || isInside(realpathSync.native(root), realpathSync.native(dirname(path)));
  } catch {
    return false;
  }
}

/** Up to `length` bytes at `position`. */
export function readAt(fd: number, position: number, length: number): Buffer {
  const buf = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const n = readSync(fd, buf, done, length - done, position + done);
    if (n === 0) break;
    done += n;
  }
  return done === length ? buf : buf.subarray(0, done);
}

/** A regular file's bytes (see openRegularFile for what is refused). */
export function readRegularFile(path: string, options: ReadOptions = {}): Buffer {
  const { fd, stat } = openRegularFile(path, options);
  try {
    return readAt(fd, 0, stat.size);
  } finally {
    closeSync(fd);
  }
}

/**
 * All of a stream (stdin) up to `maxBytes`; a clear error, not unbounded memory, past that. With
 * `timeoutMs`, a stream not ended by then is destroyed (so the process can exit) and refused.
 */
export async function readStreamBytes(stream: NodeJS.ReadableStream, maxBytes = MAX_INPUT_BYTES, name = 'stdin', timeoutMs?: number): Promise<Buffer> {
  const reading = readWholeStream(stream, maxBytes, name);
  if (timeoutMs === undefined) return reading;
  reading.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
      reject(new NotReadable(`${name} was not closed within ${timeoutMs / 1000} s; not read`, { file: name, hint: 'the program running memctx must close its end of the pipe' }));
    }, timeoutMs);
  });
  try {
    return await Promise.race([reading, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The stream read with its 'data' and 'end' events: the async iterator would cost a hook's start about 1 ms more. */
function readWholeStream(stream: NodeJS.ReadableStream, maxBytes: number, name: string): Promise<Buffer> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      stream.removeListener('data', onData);
      fn();
    };
    const onData = (chunk: Buffer | string) => {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      total += buf.length;
      if (total > maxBytes) {
        settle(() => fail(new NotReadable(`more than ${mb(maxBytes)} on ${name}; not read`, { file: name, hint: 'pass a smaller input, or a file' })));
        (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
        return;
      }
      chunks.push(buf);
    };
    stream.on('data', onData);
    stream.once('end', () => settle(() => done(Buffer.concat(chunks))));
    stream.once('error', (err: Error) => settle(() => fail(err)));
    stream.once('close', () => settle(() => fail(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }))));
    if ((stream as NodeJS.ReadableStream & { readableEnded?: boolean }).readableEnded) settle(() => done(Buffer.concat(chunks)));
  });
}
