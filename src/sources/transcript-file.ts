/**
 * Reading transcript files: whole, the first bytes (for format detection), or backwards from the
 * end in chunks of whole lines (so a recorded usage figure is found without reading a large file).
 */
import { closeSync, fstatSync, openSync, readdirSync, readSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { MemctxError } from '../errors.js';

const BINARY_PROBE = 8000;

function openFile(path: string, name: string): { fd: number; stat: Stats } {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new MemctxError('no such file', { file: name, hint: 'check the path (use - to read the transcript from stdin)' });
    if (code === 'EISDIR') throw directoryError(name);
    throw new MemctxError(`cannot read the file (${code ?? (err as Error).message})`, { file: name, hint: 'check the path and its permissions' });
  }
  const stat = fstatSync(fd);
  if (stat.isDirectory()) {
    closeSync(fd);
    throw directoryError(name);
  }
  return { fd, stat };
}

function directoryError(name: string): MemctxError {
  return new MemctxError('is a directory, not a transcript file', { file: name, hint: 'pass one transcript file, e.g. ~/.claude/projects/<project>/<session>.jsonl' });
}

function readAt(fd: number, position: number, length: number): Buffer {
  const buf = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const n = readSync(fd, buf, done, length - done, position + done);
    if (n === 0) break;
    done += n;
  }
  return done === length ? buf : buf.subarray(0, done);
}

/** Refuse bytes that are not text: a NUL byte in the first 8,000 bytes (git's test). */
export function assertText(buf: Uint8Array, name: string): void {
  const end = Math.min(buf.length, BINARY_PROBE);
  for (let i = 0; i < end; i++) {
    if (buf[i] === 0) throw new MemctxError(`looks like a binary file (a NUL byte at offset ${i}), not a transcript`, { file: name, hint: 'pass a transcript: Claude Code or Codex JSONL, an OpenAI messages JSON, or plain text' });
  }
}

/** A whole transcript file as text. Throws a MemctxError (exit 2) for a missing file, a directory, or binary data. */
export function readTranscriptText(path: string, name = path): string {
  const { fd, stat } = openFile(path, name);
  try {
    const buf = readAt(fd, 0, stat.size);
    assertText(buf, name);
    return buf.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

export interface TranscriptFile {
  size: number;
  /** The first `bytes` of the file as text (for format detection), and whether that is all of it. */
  head(bytes?: number): { text: string; complete: boolean };
  /** The start of the file with at least one whole line (growing from `bytes` up to 16 MB), for format detection. */
  firstLines(bytes?: number): { text: string; complete: boolean };
  /**
   * Whole lines from the end backwards: each step gives the lines just before the previous step's
   * (in file order) and whether they start the file. Chunks grow from `chunkSize`, doubling.
   */
  linesBackward(chunkSize?: number): Generator<{ lines: string[]; atStart: boolean }>;
  /** The whole file as text. */
  text(): string;
  close(): void;
}

/** Open a transcript for partial reads. Throws a MemctxError (exit 2) for a missing file, a directory, or binary data. */
export function openTranscriptFile(path: string, name = path): TranscriptFile {
  const { fd, stat } = openFile(path, name);
  const size = stat.size;
  const first = readAt(fd, 0, Math.min(size, BINARY_PROBE));
  try {
    assertText(first, name);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  return {
    size,
    head(bytes = 65536) {
      const buf = readAt(fd, 0, Math.min(size, bytes));
      // drop a UTF-8 sequence cut at the end
      let end = buf.length;
      if (end < size) {
        let k = end - 1;
        while (k >= 0 && end - k <= 4 && (buf[k] & 0xc0) === 0x80) k--;
        const need = buf[k] >= 0xf0 ? 4 : buf[k] >= 0xe0 ? 3 : 2;
        if (k >= 0 && buf[k] >= 0xc0 && end - k < need) end = k;
      }
      return { text: buf.subarray(0, end).toString('utf8'), complete: buf.length === size };
    },
    firstLines(bytes = 65536) {
      let h = this.head(bytes);
      for (let n = bytes * 4; !h.complete && !h.text.includes('\n') && n <= 16 << 20; n *= 4) h = this.head(n);
      return h;
    },
    *linesBackward(chunkSize = 65536) {
      // a final newline ends the last line; it does not start an empty one
      let pos = size > 0 && readAt(fd, size - 1, 1)[0] === 0x0a ? size - 1 : size;
      let carry: Buffer = Buffer.alloc(0);
      let chunk = chunkSize;
      const ran = pos > 0;
      while (pos > 0) {
        const start = Math.max(0, pos - chunk);
        const data = Buffer.concat([readAt(fd, start, pos - start), carry]);
        pos = start;
        chunk = Math.min(chunk * 2, 8 << 20);
        let from = 0;
        if (start > 0) {
          const nl = data.indexOf(0x0a);
          if (nl < 0) {
            carry = data;
            continue;
          }
          carry = data.subarray(0, nl);
          from = nl + 1;
        } else carry = Buffer.alloc(0);
        const lines = data.subarray(from).toString('utf8').split('\n');
        yield { lines: lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l)), atStart: start === 0 };
      }
      if (!ran) yield { lines: [], atStart: true };
    },
    text() {
      return readAt(fd, 0, size).toString('utf8');
    },
    close() {
      closeSync(fd);
    },
  };
}

/** The most recently written `*.jsonl` session in Claude Code's project directory for `cwd`, or undefined. */
export function latestClaudeTranscript(projectDir: string): string | undefined {
  let best: { path: string; mtime: number } | undefined;
  let names: string[];
  try {
    names = readdirSync(projectDir);
  } catch {
    return undefined;
  }
  for (const name of names) {
    if (!name.endsWith('.jsonl')) continue;
    const path = join(projectDir, name);
    try {
      const s = statSync(path);
      if (s.isFile() && (!best || s.mtimeMs > best.mtime)) best = { path, mtime: s.mtimeMs };
    } catch {
      // vanished meanwhile
    }
  }
  return best?.path;
}
