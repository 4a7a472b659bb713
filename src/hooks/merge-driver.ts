/**
 * The git merge driver for MEMORY.md (`memctx merge-index`): a `.gitattributes` line in the memory
 * directory routes MEMORY.md to it, and the repository's local git config defines it. Git config is
 * not shared by cloning, so each teammate runs the one `git config` line (MERGE_DRIVER_SETUP) or
 * `memctx init` / `memctx hook install`; without it git merges MEMORY.md as plain text.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../store/write.js';
import { git, type Env } from '../sources/git.js';

const MERGE_DRIVER = 'memctx';
/** %P (the file's path) lets messages name MEMORY.md rather than git's temporary file. */
const MERGE_DRIVER_COMMAND = 'memctx merge-index %O %A %B %P';
/** The line for a teammate's clone (the README gives it too). */
export const MERGE_DRIVER_SETUP = `git config merge.${MERGE_DRIVER}.driver '${MERGE_DRIVER_COMMAND}'`;
/** In the memory directory's .gitattributes: MEMORY.md at its top. */
const MERGE_ATTRIBUTE = `/MEMORY.md merge=${MERGE_DRIVER}`;

/** Add the attribute line to `<root>/.gitattributes` unless there; true when the file changed. */
export async function addMergeAttribute(root: string): Promise<boolean> {
  const path = join(root, '.gitattributes');
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
  if (text.split(/\r?\n/).some((line) => line.trim() === MERGE_ATTRIBUTE)) return false;
  await writeFileAtomic(path, `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${MERGE_ATTRIBUTE}\n`);
  return true;
}

/** True when the repository's local git config defines the driver (as memctx does, or a form of it the user chose, such as `npx --no-install memctx merge-index …`; with or without %P). */
export function mergeDriverSet(top: string, env: Env): boolean {
  try {
    return / merge-index %O %A %B(?: %P)?$/.test(git(['config', '--local', '--get', `merge.${MERGE_DRIVER}.driver`], top, env).trim());
  } catch {
    return false; // not set (git config exits 1)
  }
}

/** Define the driver in the repository's local git config; true when it was not defined so before. */
export function setMergeDriverConfig(top: string, env: Env): boolean {
  const key = `merge.${MERGE_DRIVER}.driver`;
  if (mergeDriverSet(top, env)) return false;
  git(['config', '--local', `merge.${MERGE_DRIVER}.name`, 'memctx: MEMORY.md keeps both sides, rebuilds the index block'], top, env);
  git(['config', '--local', key, MERGE_DRIVER_COMMAND], top, env);
  return true;
}
