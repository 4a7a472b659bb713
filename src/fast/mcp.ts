/** `memctx mcp`'s entry: an agent starts it with every session. */
import type { GlobalOptions, Io } from '../kernel/cli/context.js';
import { runMcp } from '../commands/mcp/cli.js';
import { runOnce } from '../kernel/cli/run.js';
import { runEntry } from './start.js';

export const run = (io: Io, globals: GlobalOptions): Promise<number> => runOnce(io, globals, runMcp);

/** Run as the process's entry (bin/memctx.js). */
export const start = (): Promise<void> => runEntry(run);
