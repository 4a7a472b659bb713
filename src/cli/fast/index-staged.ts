/** `memctx index --staged`'s entry: the git pre-commit hook runs it on every commit. */
import type { GlobalOptions, Io } from '../context.js';
import { runIndex } from '../index-cmd.js';
import { runOnce } from '../run.js';
import { runEntry } from './start.js';

export const run = (io: Io, globals: GlobalOptions): Promise<number> => runOnce(io, globals, runIndex, { staged: true });

/** Run as the process's entry (bin/memctx.js). */
export const start = (): Promise<void> => runEntry(run, { syncOutput: true });
