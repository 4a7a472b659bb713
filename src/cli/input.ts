import { resolve } from 'node:path';
import { MemctxError } from '../store/errors.js';
import { MAX_INPUT_BYTES, NotReadable, readRegularFile, readStreamBytes } from '../store/read-file.js';
import type { Context } from './context.js';

/** All of stdin as bytes, up to `maxBytes` (an error past that, never unbounded memory). */
export async function readStdinBytes(stdin: NodeJS.ReadableStream, maxBytes = MAX_INPUT_BYTES): Promise<Buffer> {
  return readStreamBytes(stdin, maxBytes);
}

/** All of stdin as UTF-8 text, up to `maxBytes`. */
export async function readStdin(stdin: NodeJS.ReadableStream, maxBytes = MAX_INPUT_BYTES): Promise<string> {
  return (await readStdinBytes(stdin, maxBytes)).toString('utf8');
}

/** The body from --body, --body-file (- for stdin), or stdin when it is not a terminal. */
export async function readBodyInput(ctx: Context, flags: { body?: string; bodyFile?: string }): Promise<string> {
  if (flags.body !== undefined && flags.bodyFile !== undefined) throw new MemctxError('give either --body or --body-file, not both');
  if (flags.body !== undefined) return flags.body;
  if (flags.bodyFile === '-') return readStdin(ctx.io.stdin);
  if (flags.bodyFile !== undefined) {
    const path = resolve(ctx.io.cwd, flags.bodyFile);
    try {
      return readRegularFile(path, { name: flags.bodyFile, maxBytes: MAX_INPUT_BYTES }).toString('utf8');
    } catch (err) {
      if (err instanceof NotReadable) throw err;
      throw new MemctxError(`cannot read --body-file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, { file: flags.bodyFile, hint: 'check the path' });
    }
  }
  if (ctx.io.stdin.isTTY) return '';
  return readStdin(ctx.io.stdin);
}
