/**
 * The 50-line rule, shared by `flush` (a long block is stored as a summary, never raw) and `compact`
 * (a long tool output is condensed): a block over MAX_BLOCK_LINES lines keeps its first HEAD_LINES
 * lines, the lines after them that look like errors (and, for compact, marked lines), and a count
 * of what was left out. Each caller renders the result in its own words.
 */

/** Blocks longer than this many lines are condensed. */
export const MAX_BLOCK_LINES = 50;
/** Lines kept from the start of a long block. */
export const HEAD_LINES = 10;

export interface CondenseOptions {
  /** Lines kept from the start (default HEAD_LINES). */
  head?: number;
  /** A later line that matches is kept as an error line. */
  errorLine: RegExp;
  /** At most this many error lines are kept (default: all). */
  maxErrors?: number;
  /** A later line that matches is kept as a marked line, whatever the error limit. */
  marked?: RegExp;
}

export interface CondensedBlock {
  /** Lines in the original. */
  total: number;
  head: string[];
  /** The later lines kept (error and marked lines), in order. */
  kept: string[];
  errors: number;
  marked: number;
  /** Lines left out. */
  omitted: number;
}

/** True when the text has more than `maxLines` lines. */
export function isLongBlock(text: string, maxLines = MAX_BLOCK_LINES): boolean {
  return text.split('\n').length > maxLines;
}

/** Split a long block into what the 50-line rule keeps and a count of the rest. */
export function condenseBlock(text: string, options: CondenseOptions): CondensedBlock {
  const lines = text.split('\n');
  const head = lines.slice(0, options.head ?? HEAD_LINES);
  const maxErrors = options.maxErrors ?? Infinity;
  const kept: string[] = [];
  let errors = 0;
  let marked = 0;
  for (let i = head.length; i < lines.length; i++) {
    const line = lines[i];
    if (options.marked?.test(line)) {
      kept.push(line);
      marked++;
    } else if (errors < maxErrors && options.errorLine.test(line)) {
      kept.push(line);
      errors++;
    }
  }
  return { total: lines.length, head, kept, errors, marked, omitted: lines.length - head.length - kept.length };
}
