/** `memctx status --statusline`'s entry: Claude Code runs it after every assistant message. */
import type { GlobalOptions, Io } from '../kernel/cli/context.js';
import { runOnce } from '../kernel/cli/run.js';
import { runStatusline } from '../commands/status/statusline.js';

/** Print the status line; `input` is the status-line JSON when the caller has read stdin already. */
export const run = (io: Io, globals: GlobalOptions, input?: string): Promise<number> => runOnce(io, globals, (ctx) => runStatusline(ctx, { statusline: true }, input));
