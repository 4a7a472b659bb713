/** Running a hot path's entry as its own process (scripts/bundle.mjs builds each into one file that bin/memctx.js imports). */
import { defaultIo, type GlobalOptions, type Io } from '../context.js';
import { safeStream } from '../ui/output.js';
import { fastRoute } from './route.js';

/**
 * Memory text must never reach a terminal as a control sequence, whether stdout is one or a pipe that
 * ends in one (`memctx show x | less -R`, an OSC 52 clipboard write): only memctx's own colour and
 * spinner sequences pass; CRLF line ends are kept.
 */
export function terminalSafeIo<T extends Pick<Io, 'stdout' | 'stderr'>>(given: T): T {
  return { ...given, stdout: safeStream(given.stdout), stderr: safeStream(given.stderr) };
}

/** Run the entry with the process's io and the global options on its command line; the exit code becomes the process's. */
export async function runEntry(run: (io: Io, globals: GlobalOptions) => Promise<number>): Promise<void> {
  process.exitCode = await run(terminalSafeIo(defaultIo()), fastRoute(process.argv)?.globals ?? {});
}
