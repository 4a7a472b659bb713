import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { MemctxError } from '../store/errors.js';
import type { Context } from './context.js';

/** All of stdin as bytes. */
export async function readStdinBytes(stdin: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}

/** Bytes given as input (--body-file, --from, stdin) as text; binary data or invalid UTF-8 is a usage error naming `label` and the line. */
export async function decodeInput(bytes: Buffer, label: string): Promise<string> {
  const { decodeText, DecodeFailure } = await import('../store/decode.js');
  try {
    return decodeText(bytes);
  } catch (err) {
    if (err instanceof DecodeFailure) throw new MemctxError(`${err.message}; memory files are UTF-8 text`, { file: label, line: err.line, hint: 'give a UTF-8 text file without NUL bytes' });
    throw err;
  }
}

/** All of stdin as UTF-8 text. */
export async function readStdin(stdin: NodeJS.ReadableStream): Promise<string> {
  return (await readStdinBytes(stdin)).toString('utf8');
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
      bytes = readFileSync(path);
    } catch (err) {
      throw new MemctxError(`cannot read --body-file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, { file: flags.bodyFile, hint: 'check the path' });
    }
    return decodeInput(bytes, flags.bodyFile);
  }
  if (ctx.io.stdin.isTTY) return '';
  return decodeInput(await readStdinBytes(ctx.io.stdin), 'stdin');
}
