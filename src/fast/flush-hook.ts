/** `memctx flush --hook`'s entry: Claude Code's SessionEnd and PreCompact hooks run it. */
import type { GlobalOptions, Io } from '../kernel/cli/context.js';
import { FLUSH_DEFAULTS, runFlush } from '../commands/flush/cli.js';
import { runOnce } from '../kernel/cli/run.js';
import { runEntry } from './start.js';

export const run = (io: Io, globals: GlobalOptions): Promise<number> => runOnce(io, globals, runFlush, { ...FLUSH_DEFAULTS, hook: true });

/** Run as the process's entry (bin/memctx.js). */
export const start = (): Promise<void> => runEntry(run, { syncOutput: true });
