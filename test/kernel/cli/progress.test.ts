import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgress, SPINNER_DELAY_MS } from '../../../src/kernel/cli/progress.js';
import type { Context } from '../../../src/kernel/cli/context.js';

function context(isTTY: boolean, quiet = false, env: Record<string, string> = {}, columns = 80) {
  const written: string[] = [];
  const stderr = { isTTY, columns, write: (t: string) => (written.push(t), true), on: () => stderr, once: () => stderr, removeListener: () => stderr, off: () => stderr, emit: () => true, cursorTo: () => true, moveCursor: () => true, clearLine: () => true };
  const ctx = { io: { stderr, env }, ui: { stderrIsTTY: isTTY, quiet } } as unknown as Context;
  return { ctx, written };
}

describe('progress spinner', () => {
  afterEach(() => vi.restoreAllMocks());

  it('never draws when stderr is not a terminal, or with --quiet', () => {
    for (const [tty, quiet] of [[false, false], [true, true]] as const) {
      const { ctx, written } = context(tty, quiet);
      const progress = createProgress(ctx, 'counting tokens');
      vi.spyOn(Date, 'now').mockReturnValue(Date.now() + 10 * SPINNER_DELAY_MS);
      expect(progress.tick(5, 10)).toBeUndefined();
      progress.stop();
      expect(written).toEqual([]);
      vi.restoreAllMocks();
    }
  });

  it('never draws on TERM=dumb or a terminal 0 columns wide (unsized: ora would clear lines forever)', () => {
    for (const { ctx, written } of [context(true, false, { TERM: 'dumb' }), context(true, false, {}, 0)]) {
      const progress = createProgress(ctx, 'counting tokens');
      vi.spyOn(Date, 'now').mockReturnValue(Date.now() + 10 * SPINNER_DELAY_MS);
      expect(progress.tick(5, 10)).toBeUndefined();
      progress.stop();
      expect(written).toEqual([]);
      vi.restoreAllMocks();
    }
  });

  it('stays silent while the work is quick, then spins on stderr', async () => {
    const { ctx, written } = context(true);
    const start = Date.now();
    const now = vi.spyOn(Date, 'now').mockReturnValue(start);
    const progress = createProgress(ctx, 'counting tokens');
    expect(progress.tick(1, 10)).toBeUndefined();
    now.mockReturnValue(start + SPINNER_DELAY_MS + 1);
    await progress.tick(5, 10);
    progress.stop();
    expect(written.join('')).toContain('counting tokens 5/10');
  });
});
