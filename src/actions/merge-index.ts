/**
 * `memctx merge-index BASE OURS THEIRS`: git's merge driver for MEMORY.md. Git passes the common
 * ancestor, our version and theirs as files (%O %A %B); the merged text replaces OURS. Both sides'
 * hand-written text is kept and the generated block is rebuilt from both sides' entries
 * (memindex/three-way.ts), so two branches that each add a memory never conflict in MEMORY.md.
 */
import { resolve } from 'node:path';
import { MemctxError } from '../errors.js';
import { readRegularFile } from '../store/read-file.js';
import { decodeText, DecodeFailure } from '../store/decode.js';
import { MAX_FILE_BYTES } from '../store/layout.js';
import { writeFileAtomic } from '../store/write.js';
import { mergeIndexTexts } from '../memindex/three-way.js';
import { conflictMarkerLines } from '../markdown/conflicts.js';

export interface MergeIndexOptions {
  cwd: string;
  base: string;
  ours: string;
  theirs: string;
}

export interface MergeIndexResult {
  /** The file the merged text was written to (git's %A). */
  written: string;
  /** Lines of the merged text that still hold conflict markers (a side that carried them in). */
  conflictMarkers: number[];
}

export async function mergeIndex(options: MergeIndexOptions): Promise<MergeIndexResult> {
  const read = (name: string) => {
    try {
      return decodeText(readRegularFile(resolve(options.cwd, name), { name, maxBytes: MAX_FILE_BYTES, what: 'MEMORY.md version' }));
    } catch (err) {
      if (err instanceof DecodeFailure) throw new MemctxError(err.message, { file: name, line: err.line, hint: err.hint });
      throw err;
    }
  };
  const [base, ours, theirs] = [options.base, options.ours, options.theirs].map(read);
  const merged = mergeIndexTexts(base, ours, theirs);
  await writeFileAtomic(resolve(options.cwd, options.ours), merged, { mkdir: false });
  return { written: options.ours, conflictMarkers: conflictMarkerLines(merged) };
}
