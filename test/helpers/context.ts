/** Run one command handler with a real Context (kernel/cli/run.ts `runOnce`) over an in-memory io. */
import { Readable } from 'node:stream';
import { runOnce, type Handler } from '../../src/kernel/cli/run.js';
import type { GlobalOptions, Io } from '../../src/kernel/cli/context.js';
import type { CliResult } from './cli.js';

export interface HandlerRun {
  cwd: string;
  globals?: GlobalOptions;
  env?: Record<string, string | undefined>;
  input?: string;
  now?: Date;
}

/** The handler's exit code and what it wrote, errors reported as the CLI reports them. */
export async function runHandler<A extends unknown[]>(options: HandlerRun, handler: Handler<A>, ...args: A): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    stdout: { write: (text: string) => ((stdout += text), true), isTTY: false },
    stderr: { write: (text: string) => ((stderr += text), true), isTTY: false },
    stdin: Object.assign(Readable.from(options.input === undefined ? [] : [options.input]), { isTTY: false }),
    cwd: options.cwd,
    env: { NO_COLOR: '1', PATH: process.env.PATH, ...options.env },
    home: '/nonexistent-home',
    now: () => options.now ?? new Date('2026-11-20T10:00:00Z'),
  };
  const code = await runOnce(io, options.globals ?? {}, handler, ...args);
  return { code, stdout, stderr };
}
