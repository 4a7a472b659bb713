/** A link from one memory file to another. */
export interface MemoryLink {
  /** `related` (frontmatter), `markdown` ([x](y.md)) or `wiki` ([[name]]). */
  kind: 'related' | 'markdown' | 'wiki';
  /** For related/markdown: a path relative to the memory directory; for wiki: the name as written. */
  target: string;
  /** 1-based line in the file, where known. */
  line?: number;
}

/** How the file was written, so a rewrite keeps its shape. */
export interface FileFormat {
  bom: boolean;
  eol: '\n' | '\r\n';
  /** The date key this file uses for its last update: `updated`, or `modified` where the file already has it. */
  dateKey: 'updated' | 'modified';
}

/** One parsed memory file. Plain data: safe to JSON.stringify. */
export interface MemoryFile {
  /** Path relative to the memory directory, with `/` separators. */
  path: string;
  /** Every frontmatter key in file order, unknown ones included. */
  data: Record<string, unknown>;
  /** The frontmatter block as written (between the delimiters), or '' when there is none. */
  frontmatter: string;
  hasFrontmatter: boolean;
  /** 1-based line where the body starts. */
  bodyLine: number;
  body: string;
  name: string;
  description: string;
  /** `type`, else `metadata.type`, lower-cased; undefined when neither is set. */
  type?: string;
  kind?: string;
  /** `updated` (or `modified`) as written. */
  updated?: string;
  created?: string;
  /** 1-10, 5 when unset or not a number. */
  importance: number;
  tags: string[];
  links: MemoryLink[];
  status?: string;
  severity?: string;
  expires?: string;
  pinned: boolean;
  /** `supersedes:` entries as written (a string or a list): files this one replaces. */
  supersedes?: string[];
  /** File modification time in ms since the epoch. */
  mtimeMs: number;
  /** Last commit time in git (ms), when the caller looked it up. */
  committedMs?: number;
  /** Size in bytes on disk. */
  size: number;
  format: FileFormat;
}

/** A file that could not be read or parsed. */
export interface FileProblem {
  path: string;
  line?: number;
  message: string;
  hint?: string;
}

export interface ScanResult {
  /** The memory directory, absolute. */
  root: string;
  files: MemoryFile[];
  problems: FileProblem[];
}

/** The part of a memory file that MEMORY.md and `ls` need; cached between runs (scan-cache.ts). */
export type IndexEntry = Pick<MemoryFile, 'path' | 'name' | 'description' | 'type' | 'kind' | 'updated' | 'created' | 'importance' | 'pinned' | 'tags' | 'status' | 'supersedes' | 'mtimeMs'> & {
  /** The first line holding a git conflict marker, when the body has one (`index` refuses to run). */
  conflictLine?: number;
};

export interface IndexScanResult {
  root: string;
  files: IndexEntry[];
  problems: FileProblem[];
}
