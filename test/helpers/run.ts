import { Readable } from 'node:stream';
import { main } from '../../src/main.js';
import type { Io } from '../../src/kernel/cli/context.js';
import type { CliResult } from './cli.js';

export interface RunOptions {
  cwd: string;
  /** Text on stdin (empty and not a TTY when omitted). */
  input?: string;
  /** The whole environment the command sees (NO_COLOR is set unless given). */
  env?: Record<string, string | undefined>;
  home?: string;
  now?: Date | (() => Date);
  /** Pretend stdout/stderr are terminals. */
  tty?: boolean;
}

/**
 * Run memctx in-process through `main(argv, io)`: same exit code, stdout and stderr as the bin,
 * without starting Node. Use `memctx()` from ./cli.ts only for true end-to-end tests.
 */
export async function runMemctx(args: string[], options: RunOptions): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const now = options.now;
  const io: Io = {
    stdout: { write: (text: string) => ((stdout += text), true), isTTY: options.tty ?? false },
    stderr: { write: (text: string) => ((stderr += text), true), isTTY: options.tty ?? false },
    stdin: Object.assign(Readable.from(options.input === undefined ? [] : [options.input]), { isTTY: false }),
    cwd: options.cwd,
    env: { NO_COLOR: '1', ...options.env },
    home: options.home ?? options.env?.HOME ?? '/nonexistent-home',
    now: now === undefined ? () => new Date() : typeof now === 'function' ? now : () => now,
  };
  const code = await main(['node', 'memctx', ...args], io);
  return { code, stdout, stderr };
}

/**
 * `memctx()`'s in-process twin: the same options and environment (this process's, colourless,
 * without MEMCTX_DIR or FORCE_COLOR, then `env`), run through `main(argv, io)`.
 */
export function runCli(args: string[], options: { cwd: string; input?: string; env?: Record<string, string | undefined>; timeout?: number }): Promise<CliResult> {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', MEMCTX_DIR: undefined, FORCE_COLOR: undefined, ...options.env };
  // Keys set to undefined stay, so runMemctx does not put NO_COLOR back.
  return runMemctx(args, { cwd: options.cwd, input: options.input, env, home: env.HOME });
}
