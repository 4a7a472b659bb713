import type { Stats } from 'node:fs';
import { linkTarget, openedInside } from './read-file.js';
import { join } from 'node:path';
import { isInside } from './paths.js';
import { decodeText, DecodeFailure } from './decode.js';
import { parseMemoryText, ParseFailure } from './parse.js';
import type { FileProblem, MemoryFile, ScanResult } from './types.js';
import { MAX_FILE_BYTES } from './layout.js';
import { listEntries, unreadableProblem, type ListOptions } from './list.js';

export { INDEX_FILE, MAX_FILE_BYTES } from './layout.js';


export { listMemoryPaths } from './list.js';
// node:fs without an ES module import (kernel/cli/context.ts); opens go through `fs.` at each call, where a test swaps a path.
const fs = process.getBuiltinModule('node:fs');
const { closeSync, constants, fstatSync, lstatSync, readSync, realpathSync } = fs;

export interface ScanOptions extends ListOptions {
  maxBytes?: number;
}

/** What a read saw besides the parsed file, for callers that keep it (the stat-keyed caches). */
export interface ReadDetail {
  /** The stat of the descriptor read from; unset when the file could not be opened. */
  stat?: Stats;
  /** The decoded text; unset when the file was refused before or while decoding. */
  text?: string;
}

/** One buffer the reads reuse (each file is decoded before the next is read): a scan allocates no buffer per file. */
let scratch: Buffer | undefined;
const SCRATCH_MAX = 1 << 20;

/** A buffer of at least `size` bytes for one read, valid until the next call. */
function readBuffer(size: number): Buffer {
  if (size > SCRATCH_MAX) return Buffer.allocUnsafe(size);
  if (!scratch || scratch.length < size) scratch = Buffer.allocUnsafeSlow(Math.max(size, 64 * 1024));
  return scratch.subarray(0, size);
}

/** Read a whole file through one descriptor, so its stat comes with the read at no extra cost. */
function readWithStat(abs: string, max: number, symlink: boolean, detail?: ReadDetail): { bytes: Buffer; mtimeMs: number; size: number } | FileProblemCore {
  // O_NONBLOCK: a FIFO (or a symlink to one) opens at once and is then refused as not a regular file.
  // O_NOFOLLOW: a link at the path is followed only to where it leads now (checked inside root below).
  // A path listed as no link is opened as it is (no lstat first); if it became a link since, ELOOP says so.
  const flags = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;
  let opened = symlink ? linkTarget(abs) : abs;
  let fd: number;
  try {
    fd = fs.openSync(opened, flags);
  } catch (err) {
    // ELOOP (EMLINK on FreeBSD): the path is now a link.
    const code = (err as NodeJS.ErrnoException).code;
    if (symlink || (code !== 'ELOOP' && code !== 'EMLINK')) throw err;
    opened = linkTarget(abs);
    fd = fs.openSync(opened, flags);
  }
  try {
    const stat = fstatSync(fd);
    // The folder's real path is not checked here (two realpath calls per file would add about 40 %
    // to a cold scan): what a scan reads feeds the index, while every read that hands a file's text
    // on (show, view, search --open, edit, pack) checks it in full (read-file.ts, `inside`).
    if (!openedInside(undefined, opened, stat)) return { message: 'the file or a folder on its path was swapped for a symbolic link to outside the memory directory while it was read; not read', hint: 'replace the link with a regular file inside the memory directory' };
    if (detail) detail.stat = stat;
    if (!stat.isFile()) return { message: 'not a regular file', hint: 'memory files must be regular .md files' };
    if (stat.size > max) {
      return { message: `file is ${stat.size} bytes, over the ${max}-byte limit for a memory file; not read`, hint: 'split it into smaller memory files or move it out of the memory directory' };
    }
    const bytes = readBuffer(stat.size);
    let read = 0;
    while (read < stat.size) {
      const n = readSync(fd, bytes, read, stat.size - read, read);
      if (n === 0) break;
      read += n;
    }
    return { bytes: bytes.subarray(0, read), mtimeMs: stat.mtimeMs, size: stat.size };
  } finally {
    closeSync(fd);
  }
}

type FileProblemCore = Omit<FileProblem, 'path'>;

/** Read and parse one memory file; a problem instead of a file when it cannot be used. Its bytes are not kept (readBuffer). */
export function readMemoryFile(root: string, path: string, options: ScanOptions & { symlink?: boolean; detail?: ReadDetail } = {}): MemoryFile | FileProblem {
  const abs = join(root, path);
  try {
    const symlink = options.symlink ?? lstatSync(abs).isSymbolicLink();
    if (symlink && !isInside(realpathSync(root), realpathSync(abs))) {
      return { path, message: 'symbolic link to a file outside the memory directory; not read', hint: 'replace the link with a copy of the file' };
    }
    const read = readWithStat(abs, options.maxBytes ?? MAX_FILE_BYTES, symlink, options.detail);
    if ('message' in read) return { path, ...read };
    const text = decodeText(read.bytes);
    if (options.detail) options.detail.text = text;
    return parseMemoryText(path, text, read);
  } catch (err) {
    if (err instanceof ParseFailure || err instanceof DecodeFailure) return { path, line: err.line, message: err.message, hint: err.hint };
    const code = (err as NodeJS.ErrnoException).code;
    return { path, message: `cannot read the file (${code ?? (err as Error).message})`, hint: 'check that it exists and is readable' };
  }
}

export function isProblem(value: MemoryFile | FileProblem): value is FileProblem {
  return 'message' in value;
}

/** Every memory file under root, parsed; files that fail are reported, never fatal. */
export function scanMemoryDir(root: string, options: ScanOptions = {}): ScanResult {
  const files: MemoryFile[] = [];
  const problems: FileProblem[] = [];
  for (const entry of listEntries(root, options)) {
    if (entry.error) {
      problems.push(unreadableProblem(entry));
      continue;
    }
    const result = readMemoryFile(root, entry.path, { ...options, symlink: entry.symlink });
    if (isProblem(result)) problems.push(result);
    else files.push(result);
  }
  return { root, files, problems };
}
