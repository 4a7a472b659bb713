/** `memctx status --statusline`'s entry: Claude Code runs it after every assistant message. */
import type { GlobalOptions, Io } from '../context.js';
import { runOnce } from '../run.js';
import { runStatusline } from '../statusline.js';

/** Print the status line; `input` is the status-line JSON when the caller has read stdin already. */
export const run = (io: Io, globals: GlobalOptions, input?: string): Promise<number> => runOnce(io, globals, (ctx) => runStatusline(ctx, { statusline: true }, input));
