/** The 50-line rule: a long block (tool output, a log) is stored as a summary, never raw. */
import { condenseBlock, HEAD_LINES, MAX_BLOCK_LINES } from '../capacity/condense.js';

export { MAX_BLOCK_LINES };
/** Error lines kept from the rest of it. */
const MAX_ERROR_LINES = 10;

const ERROR_LINE = /\bERR!|\b(error|errors|failed|failure|fail|fatal|exception|panic|traceback|denied|refused|cannot|unable|not found|timed? ?out)\b|✗|✖|❌/i;

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
  const total = text.split('\n').length;
  if (total <= maxLines) return { text, total, omitted: 0 };
  const block = condenseBlock(text, { head: HEAD_LINES, errorLine: ERROR_LINE, maxErrors: MAX_ERROR_LINES });
  const kept = [...block.head];
  if (block.errors) kept.push(`[error lines from the remaining ${block.total - block.head.length}:]`, ...block.kept);
  kept.push(`[… ${block.omitted} of ${block.total} lines left out]`);
  return { text: kept.join('\n'), total: block.total, omitted: block.omitted };
}
