import { join } from 'node:path';
import { EXIT_USAGE, MemctxError } from '../errors.js';
import { pendingDir } from '../state/folder.js';
import { indexLimits } from '../sources/config.js';
import { indexPath, readIndexFile, writeIndexFile } from './file.js';
import { scanIndexEntries } from '../state/scan-cache.js';
import type { FileProblem, IndexEntry } from '../store/types.js';
import { conflictMarkerLines } from '../markdown/conflicts.js';
import { lineAt } from '../lines.js';
import { IndexMarkerError, renderIndexFile, splitIndex } from './merge.js';
import type { IndexOptions } from './render.js';
import { withMemoryLock } from '../store/write.js';
import { foldPendingFlushes } from '../summary/files.js';
import { pendingRecordNames } from '../state/pending.js';

export interface ReindexResult {
  /** MEMORY.md as it should be. */
  text: string;
  /** MEMORY.md as it was, or undefined when missing. */
  previous: string | undefined;
  changed: boolean;
  files: number;
  problems: FileProblem[];
}

/** Compute MEMORY.md for the files on disk; writes nothing. */
export async function planIndex(root: string, options: IndexOptions = {}): Promise<ReindexResult> {
  const scan = await scanIndexEntries(root, Date.now());
  const previous = readIndexFile(root);
  refuseConflicts(root, previous, scan.files);
  let text: string;
  try {
    text = renderIndexFile(previous, scan.files, { ...indexLimits(root), ...options });
  } catch (err) {
    throw err instanceof IndexMarkerError ? markerError(root, err) : err;
  }
  return { text, previous, changed: text !== previous, files: scan.files.length, problems: scan.problems };
}

/**
 * Refuse to index a half-resolved merge: git conflict markers in a memory file, or in MEMORY.md's
 * hand-written text (markers inside the generated block are repaired: the block is rebuilt).
 */
function refuseConflicts(root: string, index: string | undefined, files: IndexEntry[]): void {
  const conflicted = files.find((file) => file.conflictLine !== undefined);
  if (conflicted) {
    throw new MemctxError(`${conflicted.path} holds git conflict markers (line ${conflicted.conflictLine}); MEMORY.md was not rebuilt`, {
      file: join(root, conflicted.path), line: conflicted.conflictLine, exitCode: EXIT_USAGE, hint: 'finish the merge: keep the right text, delete the marker lines, then run `memctx index`',
    });
  }
  if (index === undefined) return;
  let block: [number, number] = [0, 0];
  try {
    const parts = splitIndex(index);
    if (parts.block !== undefined) block = [lineAt(index, parts.before.length), lineAt(index, parts.before.length + parts.block.length)];
  } catch (err) {
    if (!(err instanceof IndexMarkerError)) throw err;
  }
  const line = conflictMarkerLines(index).find((n) => n < block[0] || n > block[1]);
  if (line !== undefined) {
    throw new MemctxError(`MEMORY.md holds git conflict markers in its hand-written text (line ${line}); not rebuilt`, {
      file: indexPath(root), line, exitCode: EXIT_USAGE, hint: 'keep the text you want outside the memctx markers, delete the marker lines, then run `memctx index` (`memctx init` registers a merge driver that avoids this)',
    });
  }
}

function markerError(root: string, err: IndexMarkerError): MemctxError {
  return new MemctxError(err.message, { file: indexPath(root), line: err.line, exitCode: EXIT_USAGE, hint: err.hint });
}

/** Refuse now, before a command changes a memory file, if MEMORY.md's markers would stop the re-index. */
function checkIndexMarkers(root: string): void {
  try {
    splitIndex(readIndexFile(root));
  } catch (err) {
    throw err instanceof IndexMarkerError ? markerError(root, err) : err;
  }
}

/**
 * How every command changes memory files: under the memory directory's lock, refuse first if
 * MEMORY.md's markers would stop the re-index (so nothing is half done), run `change`, then rebuild
 * the index. Once `change` has written, the command has succeeded: a re-index that fails then is
 * passed to `warn` (saying what to run), never reported as a failure of the write.
 */
export async function writeAndReindex<T>(root: string, change: () => Promise<T>, warn: (message: string) => void): Promise<{ value: T; index?: ReindexResult }> {
  return withMemoryLock(root, async () => {
    checkIndexMarkers(root);
    await foldPending(root, warn);
    const value = await change();
    try {
      return { value, index: await rebuildIndex(root, {}, warn) };
    } catch (err) {
      warn(`the change was written, but MEMORY.md was not rebuilt: ${(err as Error).message}; fix that and run \`memctx index\``);
      return { value };
    }
  });
}

/** True when a `flush --hook` left summaries in the state folder's pending/ (the lock was busy past its budget); records set aside do not count. */
export function hasPending(root: string): boolean {
  const dir = pendingDir(root);
  return dir !== undefined && pendingRecordNames(dir).length > 0;
}

/** Write the summaries a `flush --hook` kept while the lock was busy; a bad one is set aside and named to `warn`. Call inside withMemoryLock. */
async function foldPending(root: string, warn: (message: string) => void): Promise<void> {
  if (hasPending(root)) await foldPendingFlushes(root, warn);
}

/** Fold in pending summaries, rebuild MEMORY.md and write it when it changed. Call inside withMemoryLock. */
export async function rebuildIndex(root: string, options: IndexOptions, warn: (message: string) => void): Promise<ReindexResult> {
  await foldPending(root, warn);
  const plan = await planIndex(root, options);
  if (plan.changed) await writeIndexFile(root, plan.text);
  return plan;
}

