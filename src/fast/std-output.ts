/** stdout and stderr written with writeSync, for the hook entries (cli/fast/start.ts `syncOutput`). */
import { writeSync } from 'node:fs';

/** What the writer hands text to after a full non-blocking pipe: the process's own stream. */
interface Fallback {
  write(text: string | Uint8Array): unknown;
}

/**
 * A writer for descriptor 1 or 2 that writes each text at once with writeSync. Text for a reader that
 * has gone (EPIPE, a closed descriptor) is dropped; what a full non-blocking pipe (EAGAIN) does not
 * take goes, with everything after it, to `fallback()`.
 */
export function fdWriter(fd: 1 | 2, fallback: () => Fallback): { isTTY: false; write(text: string): boolean } {
  let gone = false;
  let rest: Fallback | undefined;
  return {
    isTTY: false,
    write(text: string) {
      if (gone) return true;
      if (rest) {
        rest.write(text);
        return true;
      }
      const bytes = Buffer.from(text, 'utf8');
      for (let at = 0; at < bytes.length; ) {
        try {
          at += writeSync(fd, bytes, at);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'EAGAIN') (rest = fallback()).write(bytes.subarray(at));
          else gone = true;
          break;
        }
      }
      return true;
    },
  };
}
