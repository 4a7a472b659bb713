/** `memctx ls`: the memory files that pass the filters, in index order. */
import { matchesListFilters } from '../../kernel/memindex/groups.js';
import type { FileProblem, IndexEntry } from '../../kernel/store/types.js';
import { scanIndexEntries } from '../../kernel/state/scan-cache.js';
import { checkListFilters } from '../../kernel/schema.js';
import { readIndexFile } from '../../kernel/memindex/file.js';
import { splitIndex, IndexMarkerError } from '../../kernel/memindex/merge.js';
import { linkedPaths } from '../../kernel/markdown/links.js';

export interface LsOptions {
  root: string;
  type?: string;
  kind?: string;
  tag?: string;
  /** Include files in archive/. */
  archive?: boolean;
  /** Only files MEMORY.md's generated block does not link to. */
  unlisted?: boolean;
}

export interface LsDeps {
  now: () => Date;
}

export interface LsResult {
  files: IndexEntry[];
  /** Files that could not be read. */
  problems: FileProblem[];
}

export async function ls(options: LsOptions, deps: LsDeps): Promise<LsResult> {
  const { root } = options;
  const scan = await scanIndexEntries(root, deps.now().getTime(), { includeArchive: options.archive });
  checkListFilters(options, scan.files);
  const hidden = options.unlisted ? await unlistedFilter(root) : () => true;
  return { files: scan.files.filter((f) => matchesListFilters(f, options) && hidden(f.path)), problems: scan.problems };
}

/** A test for paths MEMORY.md's generated block does not link to (all paths when it has no block). */
async function unlistedFilter(root: string): Promise<(path: string) => boolean> {
  let block: string | undefined;
  try {
    block = splitIndex(readIndexFile(root)).block;
  } catch (err) {
    if (!(err instanceof IndexMarkerError)) throw err;
  }
  const listed = linkedPaths(block ?? '');
  return (path) => !listed.has(path);
}
