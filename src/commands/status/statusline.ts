/**
 * `memctx status --statusline`: Claude Code runs this after every assistant message with its
 * status-line JSON on stdin, so it stays light (no tokenizer, no YAML, no memory scan) and never
 * fails: anything unusable gives a short neutral line and exit code 0.
 */
import { Chalk } from 'chalk';
import { EXIT_OK } from '../../kernel/errors.js';
import { statusline, type StatuslineOptions } from '../../kernel/capacity/measure.js';
import type { Context } from '../../kernel/cli/context.js';
import { colorLevel } from '../../kernel/cli/context.js';
import { neutralStatusline, renderStatusline } from '../../kernel/cli/capacity.js';
import { readStdin } from '../../kernel/cli/input.js';

/** The most of stdin the status line reads. */
const STATUSLINE_INPUT_BYTES = 1024 * 1024;

/** `input`: the status-line JSON when the caller has read stdin already (cli/fast/statusline-main.ts reads it synchronously). */
export async function runStatusline(ctx: Context, opts: StatuslineOptions, input?: string): Promise<number> {
  // Claude Code shows colours from a pipe: on unless turned off, at least 256 colours for the orange.
  const level = colorLevel(ctx.globals, ctx.io.env, true);
  const chalk = new Chalk({ level: level === 0 ? 0 : (Math.max(level, 2) as 2 | 3) });
  let label: string | undefined;
  try {
    if (input === undefined) {
      input = ctx.io.stdin.isTTY ? '' : await readStdin(ctx.io.stdin, STATUSLINE_INPUT_BYTES);
    }
    const result = await statusline(input, opts, { cwd: ctx.io.cwd, env: ctx.io.env, home: ctx.io.home, now: ctx.io.now });
    label = result.label;
    ctx.ui.out(`${result.figure ? renderStatusline(result.figure, chalk) : neutralStatusline(label)}\n`);
  } catch (err) {
    if (ctx.io.env.MEMCTX_DEBUG) ctx.ui.note(`${(err as Error).stack}\n`, { quietable: false });
    ctx.ui.out(`${neutralStatusline(label)}\n`);
  }
  return EXIT_OK;
}
