/**
 * The status line as its own process entry (bundled by scripts/bundle.mjs into one CommonJS file
 * that bin/memctx.js requires for exactly `memctx status --statusline`): no ES module loader, no
 * CLI parser, stdin read synchronously.
 */
import { readSync } from 'node:fs';
import { homedir } from 'node:os';
import { isatty } from 'node:tty';
import { quietOnBrokenPipe, type Io } from '../kernel/cli/context.js';
import { STATUSLINE_INPUT_BYTES } from '../commands/status/statusline.js';
import { fastRoute } from './route.js';
import { terminalSafeIo } from './start.js';
import { run } from './statusline.js';

/** stdin as text, read synchronously up to the limit (past it, what was read: the line turns neutral); undefined when it cannot be read so. */
function stdinText(): string | undefined {
  if (isatty(0)) return '';
  const chunks: Buffer[] = [];
  let total = 0;
  const buffer = Buffer.allocUnsafe(64 * 1024);
  for (;;) {
    let n: number;
    try {
      n = readSync(0, buffer, 0, buffer.length, null);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EOF') break;
      // EAGAIN (a non-blocking pipe) and the rest: the asynchronous read instead, unless some was read.
      return total ? Buffer.concat(chunks).toString('utf8') : undefined;
    }
    if (n === 0) break;
    chunks.push(Buffer.from(buffer.subarray(0, n)));
    total += n;
    if (total > STATUSLINE_INPUT_BYTES) break;
  }
  return Buffer.concat(chunks).toString('utf8');
}

// terminalSafeIo(defaultIo()) but for stdin, a stream made only if the synchronous read could not read
// it (a getter, which copying the object would call: making process.stdin loads Node's stream modules).
const { stdout, stderr } = terminalSafeIo({ stdout: quietOnBrokenPipe(process.stdout), stderr: quietOnBrokenPipe(process.stderr) });
const io: Io = {
  stdout,
  stderr,
  get stdin() {
    return process.stdin;
  },
  cwd: process.cwd(),
  env: process.env,
  home: homedir(),
  now: () => new Date(),
};
void run(io, fastRoute(process.argv)?.globals ?? {}, stdinText()).then((code) => {
  process.exitCode = code;
});
