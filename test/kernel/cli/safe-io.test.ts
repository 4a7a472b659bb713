import { describe, expect, it } from 'vitest';
import { safeStream, terminalSafeIo } from '../../../src/kernel/cli/safe-io.js';

/** A stream that records what reaches it, with the extras ora reads. */
function recorder() {
  const written: unknown[] = [];
  return {
    written,
    isTTY: true,
    columns: 80,
    write(text: unknown, ...rest: unknown[]) {
      written.push(rest.length ? [text, ...rest] : text);
      return true;
    },
    cursorTo(this: { written: unknown[] }, x: number) {
      this.written.push(`cursor ${x}`);
    },
  };
}

describe('safeStream', () => {
  it("makes every control sequence visible but memctx's own colours, keeping tabs, newlines and CRLF", () => {
    const target = recorder();
    const safe = safeStream(target);
    safe.write('\u001b[31mred\u001b[39m\ttab\r\nline\n');
    safe.write('title\u001b]0;pwned\u0007 bell\rover');
    expect(target.written).toEqual(['\u001b[31mred\u001b[39m\ttab\r\nline\n', 'title\u241b]0;pwned\u2407 bell\u240dover']);
  });

  it("passes a spinner's synchronized-output bracket only when written alone, and anything not a string as it is", () => {
    const target = recorder();
    const safe = safeStream(target);
    const bytes = Buffer.from('\u001b[?2026h');
    safe.write('\u001b[?2026h');
    safe.write('x\u001b[?2026l');
    safe.write(bytes, 'utf8');
    expect(target.written).toEqual(['\u001b[?2026h', 'x\u241b[?2026l', [bytes, 'utf8']]);
  });

  it('passes properties and methods through, bound to the stream, and keeps a replaced write on the wrapper', () => {
    const target = recorder();
    const safe = safeStream(target);
    expect([safe.isTTY, safe.columns]).toEqual([true, 80]);
    const cursorTo = safe.cursorTo as (x: number) => void;
    cursorTo(3);
    const replaced = (text: unknown) => target.written.push(`spinner: ${String(text)}`) > 0;
    const original = safe.write;
    safe.write = replaced;
    safe.write('a\u0007');
    expect(target.write).not.toBe(replaced);
    safe.write = original;
    safe.write('b\u0007');
    expect(target.written).toEqual(['cursor 3', 'spinner: a\u0007', 'b\u2407']);
  });
});

describe('terminalSafeIo', () => {
  it('wraps stdout and stderr and keeps the rest of the io', () => {
    const stdout = recorder();
    const stderr = recorder();
    const io = terminalSafeIo({ stdout, stderr, cwd: '/work' });
    io.stdout.write('\u009bout');
    io.stderr.write('err\u007f');
    expect(io.cwd).toBe('/work');
    expect([stdout.written, stderr.written]).toEqual([['\ufffdout'], ['err\u2421']]);
  });
});
