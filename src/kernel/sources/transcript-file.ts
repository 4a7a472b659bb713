/**
 * Reading transcript files: whole, the first bytes (for format detection), or backwards from the
 * end in chunks of whole lines (so a recorded usage figure is found without reading a large file).
 */
import type { Stats } from 'node:fs';
import { join, resolve } from 'node:path';
import { MemctxError } from '../errors.js';
import { fileKind, MAX_INPUT_BYTES, readAt } from '../store/read-file.js';
const { closeSync, constants, fstatSync, openSync, readdirSync, statSync } = process.getBuiltinModule('node:fs');

const BINARY_PROBE = 8000;

function openFile(path: string, name: string): { fd: number; stat: Stats } {
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO opens at once (and is refused below) instead of waiting for a writer.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new MemctxError('no such file', { file: name, hint: 'check the path (use - to read the transcript from stdin)' });
    if (code === 'EISDIR') throw directoryError(name);
    throw new MemctxError(`cannot read the file (${code ?? (err as Error).message})`, { file: name, hint: 'check the path and its permissions' });
  }
  const stat = fstatSync(fd);
  if (!stat.isFile()) {
    closeSync(fd);
    if (stat.isDirectory()) throw directoryError(name);
    throw new MemctxError(`is ${fileKind(stat)}, not a transcript file; not read`, { file: name, hint: 'pass a regular transcript file, or - to read it from stdin' });
  }
  return { fd, stat };
}

/** A transcript read whole (counted, compacted, flushed) may be at most this big. */
const MAX_TRANSCRIPT_BYTES = MAX_INPUT_BYTES;

/** A line longer than this (a pasted dump) holds no usage record: the backward scan skips it unread. */
const MAX_LINE_BYTES = 16 * 1024 * 1024;

function tooLargeError(name: string, size: number): MemctxError {
  const mb = (n: number) => `${Math.round(n / (1024 * 1024))} MB`;
  return new MemctxError(`is ${mb(size)}, over the ${mb(MAX_TRANSCRIPT_BYTES)} limit for reading a transcript whole; not read`, {
    file: name,
    hint: 'status reads only the end of a Claude Code or Codex transcript that records usage; for other transcripts pass the recent part (e.g. `tail -c 20000000 FILE | memctx status -`)',
  });
}

function directoryError(name: string): MemctxError {
  return new MemctxError('is a directory, not a transcript file', { file: name, hint: 'pass one transcript file, e.g. ~/.claude/projects/<project>/<session>.jsonl' });
}

function binaryError(name: string, offset: number): MemctxError {
  return new MemctxError(`looks like a binary file (a NUL byte at offset ${offset}), not a transcript`, { file: name, hint: 'pass a transcript: Claude Code or Codex JSONL, an OpenAI messages JSON, or plain text' });
}

/** Refuse bytes that are not text: a NUL byte in the first 8,000 bytes (git's test). */
/** A transcript path as a hook or an option names it: `~` is the home folder, a relative path is from cwd. */
export function transcriptPath(given: string, cwd: string, home: string): string {
  return resolve(cwd, given.replace(/^~(?=\/|$)/, home));
}

export function assertText(buf: Uint8Array, name: string): void {
  const nul = buf.subarray(0, BINARY_PROBE).indexOf(0);
  if (nul >= 0) throw binaryError(name, nul);
}

/** A whole transcript file as text. Throws a MemctxError (exit 2) for a missing file, a directory, or binary data. */
export function readTranscriptText(path: string, name = path): string {
  const { fd, stat } = openFile(path, name);
  try {
    if (stat.size > MAX_TRANSCRIPT_BYTES) throw tooLargeError(name, stat.size);
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
      // The bytes after the last newline seen so far (the end of a line whose start is further
      // back), kept as pieces so a long line costs no repeated copying; dropped past MAX_LINE_BYTES.
      let carry: Buffer[] = [];
      let carryBytes = 0;
      let chunk = chunkSize;
      const ran = pos > 0;
      while (pos > 0) {
        const start = Math.max(0, pos - chunk);
        const data = readAt(fd, start, pos - start);
        const nul = data.indexOf(0);
        if (nul !== -1) throw binaryError(name, start + nul);
        pos = start;
        chunk = Math.min(chunk * 2, 8 << 20);
        const nl = start > 0 ? data.indexOf(0x0a) : -1;
        if (start > 0 && nl < 0) {
          carryBytes += data.length;
          carry = carryBytes > MAX_LINE_BYTES ? [] : [data, ...carry];
          continue;
        }
        let lines: string[];
        // the last line here continues into the carry: drop it whole when the two are too long together
        if (carryBytes + data.length - data.lastIndexOf(0x0a) - 1 > MAX_LINE_BYTES) {
          lines = data.subarray(nl + 1).toString('utf8').split('\n');
          lines[lines.length - 1] = '';
        } else {
          lines = Buffer.concat([data.subarray(nl + 1), ...carry]).toString('utf8').split('\n');
        }
        carry = start > 0 ? [data.subarray(0, nl)] : [];
        carryBytes = start > 0 ? nl : 0;
        yield { lines: lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l)), atStart: start === 0 };
      }
      if (!ran) yield { lines: [], atStart: true };
    },
    text() {
      if (size > MAX_TRANSCRIPT_BYTES) throw tooLargeError(name, size);
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
