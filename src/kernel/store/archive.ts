import { constants, copyFileSync, existsSync, linkSync, lstatSync, mkdirSync, readFileSync, unlinkSync, type Stats } from 'node:fs';
import { MemctxError } from '../errors.js';
import { dirname, join, relative } from 'node:path';
import { assertStillInside, resolveMemoryPath } from './paths.js';
import { ARCHIVE_DIR } from './layout.js';
import { assertLockHeld } from './write.js';

export interface ArchiveMove {
  /** Path relative to the memory directory. */
  path: string;
  /** Where it goes: `archive/<path>`. */
  to: string;
  moved: boolean;
  /** Why it was not moved. */
  skipped?: string;
}

/** `archive/<path>` for a memory-relative path. */
export function archivePath(path: string): string {
  return `${ARCHIVE_DIR}/${path}`;
}

/** What moveNoClobber returns when the new name is taken by another file. */
export const ALREADY_EXISTS = 'already exists';

/** Both names are one file (a hard link), or a copy with the same bytes: a move that was cut short. */
function sameFile(a: string, b: string): boolean {
  const sa = lstatSync(a);
  const sb = lstatSync(b);
  if (sa.dev === sb.dev && sa.ino === sb.ino) return true;
  return sa.isFile() && sb.isFile() && sa.size === sb.size && readFileSync(a).equals(readFileSync(b));
}

/**
 * Give the file at `from` the name `to`, never overwriting: the new name is created with link() (or
 * an exclusive copy), which fails when the name exists, and only then is the old name removed, so
 * the file is never lost. A run killed between the two leaves both names on one file; running again
 * finishes the move. Both paths are checked to resolve inside root right before. Call inside
 * withMemoryLock. Returns undefined when moved, else why not.
 */
export function moveNoClobber(root: string, from: string, to: string): string | undefined {
  assertLockHeld(root);
  assertStillInside(root, from);
  assertStillInside(root, to);
  const source = lstatSync(from);
  try {
    mkdirSync(dirname(to), { recursive: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTDIR') return 'cannot create the file: a file stands where a folder of its path should be';
    return `cannot create its folder (${code ?? (err as Error).message})`;
  }
  assertStillInside(root, to);
  let created = true;
  try {
    try {
      linkSync(from, to);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw err;
      copyFileSync(from, to, constants.COPYFILE_EXCL);
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST') return `cannot write it (${code ?? (err as Error).message})`;
    if (!sameFile(from, to)) return ALREADY_EXISTS;
    created = false;
  }
  checkMoved(root, from, to, source, created);
  unlinkSync(from);
  return undefined;
}

/**
 * After link(): the new name must hold the file that was checked (same dev/ino, or a copy as large)
 * and both names must still resolve inside root. A folder swapped for a link between the check and
 * link() would have linked an outside file in, or this file out: the name just made is removed
 * again and the move refused, the old name untouched.
 */
function checkMoved(root: string, from: string, to: string, source: Stats, created: boolean): void {
  const made = lstatSync(to, { throwIfNoEntry: false });
  try {
    const same = made !== undefined && ((made.ino === source.ino && made.dev === source.dev) || (made.isFile() && made.size === source.size && made.ino !== lstatSync(from).ino));
    if (!same) throw new MemctxError(`${relative(root, to)} was not moved: a file or folder on its path was replaced while it was moved`, { file: to, hint: 'replace any symbolic link with a real folder inside the memory directory, then run the command again' });
    assertStillInside(root, from);
    assertStillInside(root, to);
    const now = lstatSync(from);
    if (now.ino !== source.ino || now.dev !== source.dev) throw new MemctxError(`${relative(root, from)} was not moved: it was replaced while it was moved`, { file: from, hint: 'run the command again' });
  } catch (err) {
    if (created && made && lstatSync(to, { throwIfNoEntry: false })?.ino === made.ino) unlinkSync(to);
    throw err;
  }
}

/** Move one memory file into archive/ keeping its relative path (see moveNoClobber). */
export function moveToArchive(root: string, path: string): ArchiveMove {
  assertLockHeld(root);
  const to = archivePath(path);
  const from = join(root, path);
  if (!existsSync(from)) return { path, to, moved: false, skipped: 'the file no longer exists' };
  try {
    // archive/ (or a folder in it) may be a symbolic link from a pull request: never write through one.
    resolveMemoryPath(root, to, { addExtension: false });
    const why = moveNoClobber(root, from, join(root, to));
    if (why) return { path, to, moved: false, skipped: why === ALREADY_EXISTS ? `${to} already exists; never overwritten (rename or remove one of them)` : `${to}: ${why}` };
  } catch (err) {
    return { path, to, moved: false, skipped: (err as Error).message };
  }
  return { path, to, moved: true };
}
