import { lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import fg from 'fast-glob';
import { decodeText, DecodeFailure } from './decode.js';
import { parseMemoryText, ParseFailure } from './parse.js';
import type { FileProblem, MemoryFile, ScanResult } from './types.js';

export const INDEX_FILE = 'MEMORY.md';
export const CACHE_DIR = '.memctx';
export const ARCHIVE_DIR = 'archive';
export const TEMPLATES_DIR = 'templates';
/** Memory files are small; anything bigger is refused rather than read. */
export const MAX_FILE_BYTES = 1024 * 1024;

export interface ScanOptions {
  includeArchive?: boolean;
  maxBytes?: number;
}

/** Relative paths of the memory files under root: `.md` only, no dot-files, no cache, archive or templates. */
export function listMemoryPaths(root: string, options: ScanOptions = {}): string[] {
  const ignore = [`${CACHE_DIR}/**`, `${TEMPLATES_DIR}/**`, INDEX_FILE];
  if (!options.includeArchive) ignore.push(`${ARCHIVE_DIR}/**`);
  const paths = fg.sync('**/*.md', { cwd: root, ignore, dot: false, onlyFiles: true, followSymbolicLinks: false, caseSensitiveMatch: false });
  return paths.sort(comparePaths);
}

/** Byte-wise order, so listings are the same on every machine and locale. */
export function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function isInside(root: string, target: string): boolean {
  return target === root || target.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** Read and parse one memory file; a problem instead of a file when it cannot be used. */
export function readMemoryFile(root: string, path: string, options: ScanOptions = {}): MemoryFile | FileProblem {
  const abs = join(root, path);
  try {
    const link = lstatSync(abs);
    if (link.isSymbolicLink() && !isInside(realpathSync(root), realpathSync(abs))) {
      return { path, message: 'symbolic link to a file outside the memory directory; not read', hint: 'replace the link with a copy of the file' };
    }
    const stat = link.isSymbolicLink() ? statSync(abs) : link;
    if (!stat.isFile()) return { path, message: 'not a regular file', hint: 'memory files must be regular .md files' };
    const max = options.maxBytes ?? MAX_FILE_BYTES;
    if (stat.size > max) {
      return { path, message: `file is ${stat.size} bytes, over the ${max}-byte limit for a memory file; not read`, hint: 'split it into smaller memory files or move it out of the memory directory' };
    }
    const text = decodeText(readFileSync(abs));
    return parseMemoryText(path, text, { mtimeMs: stat.mtimeMs, size: stat.size });
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
  for (const path of listMemoryPaths(root, options)) {
    const result = readMemoryFile(root, path, options);
    if (isProblem(result)) problems.push(result);
    else files.push(result);
  }
  return { root, files, problems };
}
