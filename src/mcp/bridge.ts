import { Readable } from 'node:stream';
import type { Io } from '../cli/context.js';

export interface CommandResult {
  code: number;
  /** The command's one JSON document, when it printed one. */
  json: unknown;
  stdout: string;
  stderr: string;
}

/**
 * Run one memctx command in-process with --json and return its document.
 * TODO: search calls an action directly once its filter parsing and checks live in src/actions/;
 * until then the server goes through the same code as the CLI.
 */
export async function runCommand(args: string[], io: Pick<Io, 'cwd' | 'env' | 'home' | 'now'>, input = ''): Promise<CommandResult> {
  const { main } = await import('../cli/main.js');
  let stdout = '';
  let stderr = '';
  const code = await main(['node', 'memctx', ...args], {
    ...io,
    env: { ...io.env, NO_COLOR: '1' },
    stdout: { write: (text: string) => ((stdout += text), true), isTTY: false },
    stderr: { write: (text: string) => ((stderr += text), true), isTTY: false },
    stdin: Object.assign(Readable.from(input === '' ? [] : [input]), { isTTY: false }),
  });
  let json: unknown;
  try {
    json = stdout.trim() === '' ? undefined : JSON.parse(stdout);
  } catch {
    json = undefined;
  }
  return { code, json, stdout, stderr };
}
