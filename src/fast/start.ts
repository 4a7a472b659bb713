/** Running a hot path's entry as its own process (scripts/bundle.mjs builds each into one file that bin/memctx.js imports). */
import { isatty } from 'node:tty';
import type { Stream } from '../kernel/io.js';
import { fdWriter } from './std-output.js';
import { defaultIo, quietOnBrokenPipe, type GlobalOptions, type Io } from '../kernel/cli/context.js';
import { safeStream } from '../kernel/cli/output.js';
import { fastRoute } from './route.js';

/**
 * Memory text must never reach a terminal as a control sequence, whether stdout is one or a pipe that
 * ends in one (`memctx show x | less -R`, an OSC 52 clipboard write): only memctx's own colour and
 * spinner sequences pass; CRLF line ends are kept.
 */
export function terminalSafeIo<T extends Pick<Io, 'stdout' | 'stderr'>>(given: T): T {
  return { ...given, stdout: safeStream(given.stdout), stderr: safeStream(given.stderr) };
}

/**
 * stdout or stderr written with writeSync (store/std-output.ts), for an entry that prints a line or
 * two: making process.stdout and process.stderr (a socket each on a pipe) costs a hook about 1 ms. A
 * terminal gets the process's own stream.
 */
export function syncOutput(fd: 1 | 2): Stream {
  const own = () => quietOnBrokenPipe(fd === 1 ? process.stdout : process.stderr);
  return isatty(fd) ? own() : fdWriter(fd, own);
}

/**
 * Run the entry with the process's io (with `syncOutput`, stdout and stderr written synchronously)
 * and the global options on its command line; the exit code becomes the process's.
 */
export async function runEntry(run: (io: Io, globals: GlobalOptions) => Promise<number>, options: { syncOutput?: boolean } = {}): Promise<void> {
  const io = defaultIo(options.syncOutput ? { stdout: syncOutput(1), stderr: syncOutput(2) } : undefined);
  process.exitCode = await run(terminalSafeIo(io), fastRoute(process.argv)?.globals ?? {});
}
