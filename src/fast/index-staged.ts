/** `memctx index --staged`'s entry: the git pre-commit hook runs it on every commit. */
import type { GlobalOptions, Io } from '../kernel/cli/context.js';
import { runIndex } from '../commands/index/cli.js';
import { runOnce } from '../kernel/cli/run.js';
import { runEntry } from './start.js';

export const run = (io: Io, globals: GlobalOptions): Promise<number> => runOnce(io, globals, runIndex, { staged: true });

/** Run as the process's entry (bin/memctx.js). */
export const start = (): Promise<void> => runEntry(run, { syncOutput: true });
