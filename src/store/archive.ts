import { constants, copyFileSync, existsSync, linkSync, mkdirSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { resolveMemoryPath } from './paths.js';
import { ARCHIVE_DIR } from './layout.js';

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

/**
 * Move one memory file into archive/ keeping its relative path. Never overwrites: the new name is
 * created with link() (or an exclusive copy), which fails when the name exists, and only then is
 * the old name removed, so the file is never lost or duplicated under one name. Call inside
 * withMemoryLock.
 */
export function moveToArchive(root: string, path: string): ArchiveMove {
  const to = archivePath(path);
  const from = join(root, path);
  const target = join(root, to);
  if (!existsSync(from)) return { path, to, moved: false, skipped: 'the file no longer exists' };
  try {
    // archive/ (or a folder in it) may be a symbolic link from a pull request: never write through one.
    resolveMemoryPath(root, to, { addExtension: false });
  } catch (err) {
    return { path, to, moved: false, skipped: (err as Error).message };
  }
  mkdirSync(dirname(target), { recursive: true });
  try {
    try {
      linkSync(from, target);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') throw err;
      copyFileSync(from, target, constants.COPYFILE_EXCL);
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return { path, to, moved: false, skipped: `${to} already exists; never overwritten (rename or remove one of them)` };
    return { path, to, moved: false, skipped: `cannot write ${to} (${code ?? (err as Error).message})` };
  }
  unlinkSync(from);
  return { path, to, moved: true };
}
