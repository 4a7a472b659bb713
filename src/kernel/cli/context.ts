import { homedir } from 'node:os';
import type { Ui } from './output.js';
import type { FindOptions } from '../store/find.js';

export type { Io } from '../io.js';
import type { Io, Stream } from '../io.js';

// node:fs through getBuiltinModule: an ES module import of node:fs loads fs/promises and the streams
// behind it (30 M instructions on Node 20, 60 M on Node 24), which a hook otherwise never needs.
const { fstatSync, readSync, statSync, writeSync } = process.getBuiltinModule('node:fs');

export interface GlobalOptions {
  dir?: string;
  claude?: boolean;
  json?: boolean;
  quiet?: boolean;
  color?: boolean;
}

export interface Context {
  io: Io;
  ui: Ui;
  globals: GlobalOptions;
  /** `memctx` with the global options that chose the memory directory, for hints meant to be pasted. */
  memctx: string;
  /** The memory directory (found from --dir, --claude, MEMCTX_DIR or the walk up). */
  memoryDir(options?: Pick<FindOptions, 'allowMissing' | 'here' | 'confined'>): string;
}

/**
 * A reader that stops early (`memctx ls | head -1`) closes the pipe: stop quietly, as other CLIs do,
 * instead of an unhandled EPIPE stack. Any other stream error is still raised.
 */
function quietOnBrokenPipe<S extends NodeJS.WritableStream>(stream: S, exit: (code: number) => void = (code) => process.exit(code)): S {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') exit(0);
    else throw err;
  });
  return stream;
}

/**
 * fd 1 or 2 as a stream that is made only when needed. Into a pipe, a file or /dev/null (never a
 * terminal), text is written with writeSync, as Node's own stream would write it there (synchronously),
 * without making the stream (about 30 M instructions, a third of Node's start). Anything else (a
 * terminal, another argument, a property other than `write` and `isTTY`) makes the real stream, which
 * then takes every later write. A closed pipe stops the process quietly at the next tick, as the stream's
 * error does; a full non-blocking pipe hands the rest to the stream.
 */
export function processOutput(fd: number, make: () => NodeJS.WritableStream, exit: (code: number) => void = (code) => process.exit(code)): Stream {
  let stream: NodeJS.WritableStream | undefined;
  let direct: boolean | undefined;
  let broken = false;
  const real = () => (stream ??= make());
  const isDirect = () => (direct ??= stream === undefined && neverTerminal(fd));
  const writeDirect = (text: string) => {
    const bytes = Buffer.from(text, 'utf8');
    let done = 0;
    try {
      while (done < bytes.length) done += writeSync(fd, bytes, done);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') return real().write(bytes.subarray(done));
      broken = true;
      process.nextTick(() => {
        if (code === 'EPIPE') exit(0);
        else throw err;
      });
    }
    return true;
  };
  const write = (text: unknown, ...rest: unknown[]): unknown => {
    if (broken) return true;
    if (rest.length > 0 || typeof text !== 'string' || stream !== undefined || !isDirect()) return (real().write as (...a: unknown[]) => unknown)(text, ...rest);
    return writeDirect(text);
  };
  return new Proxy({} as Stream, {
    get(_target, key) {
      if (key === 'write') return write;
      if (key === 'isTTY' && isDirect()) return undefined;
      const target = real();
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
    set: (_target, key, value) => Reflect.set(real(), key, value),
    has: (_target, key) => key === 'write' || Reflect.has(real(), key),
  });
}

/** Whether fd is surely no terminal: not a character device, or /dev/null (a terminal is always a character device). */
function neverTerminal(fd: number): boolean {
  try {
    const stats = fstatSync(fd);
    return !stats.isCharacterDevice() || stats.rdev === statSync('/dev/null').rdev;
  } catch {
    return false;
  }
}

/** The process's io; `out` in place of process.stdout and process.stderr (which are then not made). */
export function defaultIo(out?: Pick<Io, 'stdout' | 'stderr'>): Io {
  let stdin: Io['stdin'] | undefined;
  return {
    stdout: out ? out.stdout : processOutput(1, () => quietOnBrokenPipe(process.stdout)),
    stderr: out ? out.stderr : processOutput(2, () => quietOnBrokenPipe(process.stderr)),
    // made on first use: a command that never reads stdin does not pay for the stream
    get stdin() {
      return (stdin ??= process.stdin);
    },
    readStdinSync: readProcessStdin,
    cwd: process.cwd(),
    env: process.env,
    home: homedir(),
    now: () => new Date(),
  };
}

/** fd 0 read to its end with blocking reads: '' for a terminal, undefined when the fd is non-blocking (EAGAIN). */
function readProcessStdin(maxBytes: number): string | undefined {
  if (fstatSync(0).isCharacterDevice()) return '';
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(64 * 1024);
    let n: number;
    try {
      n = readSync(0, chunk, 0, chunk.length, null);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EAGAIN' && total === 0) return undefined;
      if ((err as NodeJS.ErrnoException).code === 'EOF') break;
      throw err;
    }
    if (n === 0) break;
    total += n;
    if (total > maxBytes) throw new Error(`stdin is over ${maxBytes} bytes`);
    chunks.push(chunk.subarray(0, n));
  }
  return Buffer.concat(chunks).toString('utf8');
}

export type ColorLevel = 0 | 1 | 2 | 3;

/**
 * How many colours a stream gets: --no-color and NO_COLOR turn them off, --color and FORCE_COLOR
 * (1, 2, 3; 0 or false turns them off) turn them on even when the stream is not a terminal;
 * otherwise terminals get colours at the depth their TERM / COLORTERM announce.
 */
export function colorLevel(globals: GlobalOptions, env: Io['env'], isTTY: boolean | undefined): ColorLevel {
  if (globals.color === false) return 0;
  const force = env.FORCE_COLOR;
  const forced = globals.color === true || (force !== undefined && force !== '0' && force !== 'false');
  if (!forced && ((env.NO_COLOR !== undefined && env.NO_COLOR !== '') || force !== undefined || !isTTY)) return 0;
  if (force !== undefined && /^[123]$/.test(force)) return Number(force) as ColorLevel;
  if (/^(truecolor|24bit)$/i.test(env.COLORTERM ?? '')) return 3;
  if (/256/.test(env.TERM ?? '')) return 2;
  return 1;
}

/** Whether the memory directory was named (--dir, --claude, MEMCTX_DIR) rather than found by walking up. */
export function memoryDirIsExplicit(ctx: Context): boolean {
  return Boolean(ctx.globals.dir ?? ctx.globals.claude ?? ctx.io.env.MEMCTX_DIR);
}
