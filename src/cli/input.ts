import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { MemctxError } from '../errors.js';
import type { Context } from './context.js';

/** All of stdin as bytes. */
export async function readStdinBytes(stdin: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}

/** All of stdin as UTF-8 text. */
export async function readStdin(stdin: NodeJS.ReadableStream): Promise<string> {
  return (await readStdinBytes(stdin)).toString('utf8');
}

/** The body from --body, --body-file (- for stdin), or stdin when it is not a terminal. */
export async function readBodyInput(ctx: Context, flags: { body?: string; bodyFile?: string }): Promise<string> {
  if (flags.body !== undefined && flags.bodyFile !== undefined) throw new MemctxError('give either --body or --body-file, not both');
  if (flags.body !== undefined) return flags.body;
  if (flags.bodyFile === '-') return readStdin(ctx.io.stdin);
  if (flags.bodyFile !== undefined) {
    const path = resolve(ctx.io.cwd, flags.bodyFile);
    try {
      return readFileSync(path, 'utf8');
    } catch (err) {
      throw new MemctxError(`cannot read --body-file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, { file: flags.bodyFile, hint: 'check the path' });
    }
  }
  if (ctx.io.stdin.isTTY) return '';
  return readStdin(ctx.io.stdin);
}
