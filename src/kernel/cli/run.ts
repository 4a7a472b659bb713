import type { Command } from 'commander';
import { MemctxError } from '../errors.js';
import { findMemoryDir } from '../store/find.js';
import { colorLevel, type Context, type GlobalOptions, type Io } from './context.js';
import { createUi, loadChalk } from './output.js';
import { shellWord } from '../text/shell.js';

export type Handler<A extends unknown[]> = (ctx: Context, ...args: A) => Promise<number>;

/** Turns a command handler into a commander action that records its exit code and reports errors. */
export type Runner = <A extends unknown[]>(handler: Handler<A>) => (...args: unknown[]) => Promise<void>;

export interface RunState {
  exitCode: number;
}

/** `memctx`, `memctx --claude` or `memctx --dir PATH`: how to reach the same memory directory again. */
function memctxCommand(globals: Pick<GlobalOptions, 'dir' | 'claude'>): string {
  return ['memctx', ...(globals.claude ? ['--claude'] : []), ...(globals.dir !== undefined ? ['--dir', shellWord(globals.dir)] : [])].join(' ');
}

/** What a handler gets: the io, a ui with the colour levels the global options ask for (chalk only if one is above 0), the memory directory finder. */
async function createContext(io: Io, globals: GlobalOptions): Promise<Context> {
  const colorOut = colorLevel(globals, io.env, io.stdout.isTTY);
  const colorErr = colorLevel(globals, io.env, io.stderr.isTTY);
  const ui = createUi({ stdout: io.stdout, stderr: io.stderr, colorOut, colorErr, quiet: Boolean(globals.quiet), json: Boolean(globals.json), Chalk: await loadChalk([colorOut, colorErr]) });
  return {
    io,
    ui,
    globals,
    memctx: memctxCommand(globals),
    memoryDir: (options = {}) =>
      findMemoryDir({ ...options, dir: globals.dir, claude: globals.claude, cwd: io.cwd, env: io.env, home: io.home }),
  };
}

/** Runs a handler with the context for these options (commander's `optsWithGlobals()`), recording its exit code and reporting its errors. */
async function runHandler<A extends unknown[]>(io: Io, state: RunState, globals: GlobalOptions, handler: Handler<A>, ...args: A): Promise<void> {
  const ctx = await createContext(io, globals);
  try {
    state.exitCode = await handler(ctx, ...args);
  } catch (err) {
    const error = err instanceof MemctxError ? err : new MemctxError(`unexpected failure: ${(err as Error).message}`, { hint: 'please report this; set MEMCTX_DEBUG=1 for the stack' });
    ctx.ui.error(error);
    // With --json, the error is also a JSON document on stdout, so a script reading stdout sees it.
    if (ctx.ui.json) ctx.ui.printJson(error);
    if (!(err instanceof MemctxError) && io.env.MEMCTX_DEBUG) ctx.ui.note(`${(err as Error).stack}\n`, { quietable: false });
    state.exitCode = error.exitCode;
  }
}

/** Run one handler outside commander (the hot paths' entries, cli/fast/); resolves to its exit code. */
export async function runOnce<A extends unknown[]>(io: Io, globals: GlobalOptions, handler: Handler<A>, ...args: A): Promise<number> {
  const state: RunState = { exitCode: 0 };
  await runHandler(io, state, globals, handler, ...args);
  return state.exitCode;
}

export function createRunner(io: Io, state: RunState): Runner {
  return <A extends unknown[]>(handler: Handler<A>) =>
    async (...args: unknown[]) => {
      const command = args[args.length - 1] as Command;
      await runHandler(io, state, command.optsWithGlobals<GlobalOptions>(), handler, ...(args.slice(0, -1) as A));
    };
}

/** Values of a repeatable option. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
