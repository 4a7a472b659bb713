import type { Context } from './context.js';

export interface Progress {
  /** Report progress; resolves after letting the spinner draw. A no-op unless a spinner may show. */
  tick(done: number, total: number): Promise<void> | undefined;
  stop(): void;
}

/** Show a spinner only when the work takes long. */
export const SPINNER_DELAY_MS = 300;

/**
 * An ora spinner on stderr, started only when stderr is a terminal that can move its cursor (not
 * TERM=dumb) and has a width, output is not quiet, and the work has already taken SPINNER_DELAY_MS
 * (MEMCTX_SPINNER_DELAY_MS overrides it, so the terminal tests can show the spinner on small work).
 */
export function createProgress(ctx: Context, label: string): Progress {
  // A terminal of 0 columns (a pseudo-terminal nobody sized) would make ora clear lines forever.
  const columns = (ctx.io.stderr as { columns?: number }).columns;
  if (!ctx.ui.stderrIsTTY || ctx.ui.quiet || ctx.io.env.TERM === 'dumb' || columns === 0) return { tick: () => undefined, stop: () => undefined };
  const delay = Number(ctx.io.env.MEMCTX_SPINNER_DELAY_MS ?? SPINNER_DELAY_MS);
  const started = Date.now();
  let spinner: import('ora').Ora | undefined;
  let loading: Promise<void> | undefined;
  return {
    tick(done, total) {
      if (Date.now() - started < delay) return undefined;
      const text = `${label} ${done}/${total}`;
      if (spinner) spinner.text = text;
      else loading ??= import('ora').then(({ default: ora }) => {
        spinner = ora({ text, stream: ctx.io.stderr as NodeJS.WritableStream, isEnabled: true }).start();
      });
      return (loading ?? Promise.resolve()).then(() => new Promise<void>((resolve) => setImmediate(resolve)));
    },
    stop() {
      spinner?.stop();
    },
  };
}
