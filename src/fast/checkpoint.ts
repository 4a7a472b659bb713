/** `memctx checkpoint`'s entry: Claude Code's Stop hook runs it after every turn. */
import { CHECKPOINT_DEFAULTS, runCheckpoint } from '../commands/checkpoint/cli.js';
import type { GlobalOptions, Io } from '../kernel/cli/context.js';
import { runOnce } from '../kernel/cli/run.js';
import { runEntry } from './start.js';

export const run = (io: Io, globals: GlobalOptions): Promise<number> => runOnce(io, globals, runCheckpoint, { ...CHECKPOINT_DEFAULTS });

/** Run as the process's entry (bin/memctx.js). */
export const start = (): Promise<void> => runEntry(run, { syncOutput: true });
