/**
 * `memctx status --statusline`: Claude Code runs this after every assistant message with its
 * status-line JSON on stdin, so it stays light (no tokenizer, no YAML, no chalk, no memory scan) and
 * never fails: anything unusable gives a short neutral line and exit code 0.
 */
import { EXIT_OK } from '../../kernel/errors.js';
import { statusline, type StatuslineOptions } from '../../kernel/capacity/statusline.js';
import { colorLevel, type GlobalOptions, type Io } from '../../kernel/cli/context.js';
import { neutralStatusline, renderStatusline } from '../../kernel/cli/statusline.js';

/** The most of stdin the status line reads. */
const STATUSLINE_INPUT_BYTES = 1024 * 1024;

/** stdin through its stream (a test's, or a non-blocking fd): its reader loads only then. */
async function readStdinStream(io: Io): Promise<string> {
  if (io.stdin.isTTY) return '';
  const { readStdin } = await import('../../kernel/cli/input.js');
  return readStdin(io.stdin, STATUSLINE_INPUT_BYTES);
}

export async function runStatusline(io: Io, globals: GlobalOptions, opts: StatuslineOptions): Promise<number> {
  // Claude Code shows colours from a pipe: on unless turned off, at least 256 colours for the orange.
  const level = colorLevel(globals, io.env, true);
  const colors = level === 0 ? 0 : Math.max(level, 2) as 2 | 3;
  let label: string | undefined;
  try {
    const input = io.readStdinSync?.(STATUSLINE_INPUT_BYTES) ?? (await readStdinStream(io));
    const result = await statusline(input, opts, { cwd: io.cwd, env: io.env, home: io.home, now: io.now });
    label = result.label;
    io.stdout.write(`${result.figure ? renderStatusline(result.figure, colors) : neutralStatusline(label)}\n`);
  } catch (err) {
    if (io.env.MEMCTX_DEBUG) io.stderr.write(`${(err as Error).stack}\n`);
    io.stdout.write(`${neutralStatusline(label)}\n`);
  }
  return EXIT_OK;
}
