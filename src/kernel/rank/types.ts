import type { MemoryFile } from '../store/types.js';

/**
 * What scoring and packing read of a memory file. A parsed MemoryFile is one; so is an entry from
 * the pack cache, whose body is read only when a task needs to search it.
 */
export type PackFile = Pick<MemoryFile, 'path' | 'name' | 'description' | 'type' | 'kind' | 'updated' | 'created' | 'importance' | 'tags' | 'links' | 'status' | 'severity' | 'expires' | 'pinned' | 'supersedes' | 'mtimeMs' | 'committedMs'> & {
  /** The text after the frontmatter. */
  readonly body: string;
  /** Whether the body holds TODO or BLOCKER markers, when already known. */
  readonly markers?: boolean;
};
