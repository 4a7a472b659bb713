import { EXIT_USAGE, MemctxError } from '../store/errors.js';
import { indexPath, readIndexFile, writeIndexFile } from '../store/index-file.js';
import { scanMemoryDir } from '../store/scan.js';
import type { FileProblem } from '../store/types.js';
import { IndexMarkerError, renderIndexFile } from '../memindex/merge.js';
import type { IndexOptions } from '../memindex/render.js';

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
export function planIndex(root: string, options: IndexOptions = {}): ReindexResult {
  const scan = scanMemoryDir(root);
  const previous = readIndexFile(root);
  let text: string;
  try {
    text = renderIndexFile(previous, scan.files, options);
  } catch (err) {
    if (err instanceof IndexMarkerError) {
      throw new MemctxError(err.message, { file: indexPath(root), line: err.line, exitCode: EXIT_USAGE, hint: 'leave exactly one begin and one end marker, or remove both to regenerate the block' });
    }
    throw err;
  }
  return { text, previous, changed: text !== previous, files: scan.files.length, problems: scan.problems };
}

/** Rebuild MEMORY.md and write it when it changed. Call inside withMemoryLock. */
export async function rebuildIndex(root: string, options: IndexOptions = {}): Promise<ReindexResult> {
  const plan = planIndex(root, options);
  if (plan.changed) await writeIndexFile(root, plan.text);
  return plan;
}

export { displayPath } from './display-path.js';
