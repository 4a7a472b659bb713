/** The 50-line rule: a long block (tool output, a log) is stored as a summary, never raw. */

export const MAX_BLOCK_LINES = 50;
/** Lines kept from the start of a long block. */
export const HEAD_LINES = 10;
/** Error lines kept from the rest of it. */
export const MAX_ERROR_LINES = 10;

const ERROR_LINE = /\bERR!|\b(error|errors|failed|failure|fail|fatal|exception|panic|traceback|denied|refused|cannot|unable|not found|timed? ?out)\b|✗|✖|❌/i;

export function isErrorLine(line: string): boolean {
  return ERROR_LINE.test(line);
}

export interface BlockSummary {
  text: string;
  /** Lines in the original. */
  total: number;
  /** Lines left out (0 when the block was short enough). */
  omitted: number;
}

/**
 * A block of at most `maxLines` lines is kept as it is; a longer one becomes its first lines, its
 * error lines (up to MAX_ERROR_LINES) and a count of what was left out.
 */
export function summarizeBlock(text: string, maxLines = MAX_BLOCK_LINES): BlockSummary {
  const lines = text.split('\n');
  if (lines.length <= maxLines) return { text, total: lines.length, omitted: 0 };
  const head = lines.slice(0, HEAD_LINES);
  const errors = lines.slice(HEAD_LINES).filter((line) => line.trim() !== '' && isErrorLine(line)).slice(0, MAX_ERROR_LINES);
  const omitted = lines.length - head.length - errors.length;
  const kept = [...head];
  if (errors.length) kept.push(`[error lines from the remaining ${lines.length - HEAD_LINES}:]`, ...errors);
  kept.push(`[… ${omitted} of ${lines.length} lines left out]`);
  return { text: kept.join('\n'), total: lines.length, omitted };
}
