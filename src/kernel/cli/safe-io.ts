/** Streams that let no control sequence of memory text reach a terminal. */
import { terminalSafe } from '../markdown/escape.js';
import type { Stream } from '../io.js';

/** ora's synchronized-output brackets around each spinner frame: each written alone, so only a write of exactly one passes. */
const SPINNER_SYNC = new Set(['\u001b[?2026h', '\u001b[?2026l']);

/**
 * The stream with every write made terminal-safe (see terminalSafe). Everything else (isTTY,
 * columns, the cursor methods ora uses) passes through unchanged. A property set on the wrapper
 * (ora replaces `write` while it spins) stays on the wrapper: set on the stream below, it would
 * make the two writes call each other.
 */
export function safeStream<S extends Stream>(stream: S): S {
  const own = new Map<PropertyKey, unknown>();
  const safe = (text: string) => (SPINNER_SYNC.has(text) ? text : terminalSafe(text));
  const safeWrite = (text: unknown, ...rest: unknown[]) => (stream.write as (...a: unknown[]) => unknown).call(stream, typeof text === 'string' ? safe(text) : text, ...rest);
  return new Proxy(stream, {
    get(target, key) {
      if (own.has(key)) return own.get(key);
      if (key === 'write') return safeWrite;
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
    set(_target, key, value) {
      if (key === 'write' && value === safeWrite) own.delete(key);
      else own.set(key, value);
      return true;
    },
  });
}

/**
 * Memory text must never reach a terminal as a control sequence, whether stdout is one or a pipe that
 * ends in one (`memctx show x | less -R`, an OSC 52 clipboard write): only memctx's own colour and
 * spinner sequences pass; CRLF line ends are kept.
 */
export function terminalSafeIo<T extends { stdout: Stream; stderr: Stream }>(given: T): T {
  // copied by descriptor, so a lazy stdin (defaultIo's) stays lazy
  const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(given)) as T;
  return Object.assign(copy, { stdout: safeStream(given.stdout), stderr: safeStream(given.stderr) });
}
