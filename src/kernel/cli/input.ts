import { resolve } from 'node:path';
import { MemctxError } from '../errors.js';
import { MAX_INPUT_BYTES, NotReadable, readRegularFile, readStreamBytes } from '../store/read-file.js';
import { decodeInput } from '../store/decode.js';
import type { Context } from './context.js';

/** All of stdin as bytes, up to `maxBytes` (an error past that, never unbounded memory). */
export async function readStdinBytes(stdin: NodeJS.ReadableStream, maxBytes = MAX_INPUT_BYTES, timeoutMs?: number): Promise<Buffer> {
  return readStreamBytes(stdin, maxBytes, 'stdin', timeoutMs);
}

/** All of stdin as UTF-8 text, up to `maxBytes`. */
export async function readStdin(stdin: NodeJS.ReadableStream, maxBytes = MAX_INPUT_BYTES, timeoutMs?: number): Promise<string> {
  return (await readStdinBytes(stdin, maxBytes, timeoutMs)).toString('utf8');
}

/** What a command reading a hook's JSON on stdin takes from the context (flush and checkpoint). */
export function hookDeps(ctx: Context) {
  return {
    cwd: ctx.io.cwd,
    env: ctx.io.env,
    home: ctx.io.home,
    now: ctx.io.now,
    readStdin: async (maxBytes?: number, timeoutMs?: number) => readStdin(ctx.io.stdin, maxBytes, timeoutMs),
    stdinIsTTY: Boolean(ctx.io.stdin.isTTY),
    dir: ctx.globals.dir,
    claude: ctx.globals.claude,
  };
}

/** The body from --body, --body-file (- for stdin), or stdin when it is not a terminal. */
export async function readBodyInput(ctx: Context, flags: { body?: string; bodyFile?: string }): Promise<string> {
  if (flags.body !== undefined && flags.bodyFile !== undefined) throw new MemctxError('give either --body or --body-file, not both');
  if (flags.body !== undefined) return flags.body;
  if (flags.bodyFile === '-') return decodeInput(await readStdinBytes(ctx.io.stdin), 'stdin');
  if (flags.bodyFile !== undefined) {
    const path = resolve(ctx.io.cwd, flags.bodyFile);
    let bytes: Buffer;
    try {
      bytes = readRegularFile(path, { name: flags.bodyFile, maxBytes: MAX_INPUT_BYTES });
    } catch (err) {
      if (err instanceof NotReadable) throw err;
      throw new MemctxError(`cannot read --body-file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, { file: flags.bodyFile, hint: 'check the path' });
    }
    return decodeInput(bytes, flags.bodyFile);
  }
  if (ctx.io.stdin.isTTY) return '';
  return decodeInput(await readStdinBytes(ctx.io.stdin), 'stdin');
}
