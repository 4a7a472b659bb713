/**
 * When token counts add up. Both encodings' split patterns end a piece at a newline unless the next
 * character is whitespace or `/` (o200k_base lets `/` follow punctuation and newlines), and no
 * piece looks behind. So for a text `a` ending in "\n" and a text `b` starting with any other
 * character, the pieces of `a + b` are the pieces of `a` followed by those of `b`, and
 * count(a + b) = count(a) + count(b). Such a place inside a text is a split point: the text's count
 * is the sum of its two sides'. Tests check this against js-tiktoken on random text and random cuts.
 */

const UNSAFE_START = /^[\s/]/u;
const WHITE_OR_SLASH = /[\s/]/u;

/** True when count(left + right) is exactly count(left) + count(right). */
export function joinsCleanly(left: string, right: string): boolean {
  if (left === '' || right === '') return true;
  return left.endsWith('\n') && !UNSAFE_START.test(right);
}

/** Whether position `at` (0 < at < text.length) is a split point: after a newline, before neither whitespace nor `/`. */
function splitsAt(text: string, at: number): boolean {
  return text.charCodeAt(at - 1) === 10 && !WHITE_OR_SLASH.test(text[at]);
}

/** The first split point inside the text at or after `from`, or -1. */
export function firstSplit(text: string, from = 1): number {
  for (let nl = text.indexOf('\n', from - 1); nl !== -1 && nl + 1 < text.length; nl = text.indexOf('\n', nl + 1)) {
    if (splitsAt(text, nl + 1)) return nl + 1;
  }
  return -1;
}

/** The last split point inside the text, or -1. */
export function lastSplit(text: string): number {
  for (let nl = text.lastIndexOf('\n', text.length - 2); nl !== -1; nl = nl === 0 ? -1 : text.lastIndexOf('\n', nl - 1)) {
    if (splitsAt(text, nl + 1)) return nl + 1;
  }
  return -1;
}

/**
 * The exact count of parts.join(''), without counting the joined text: each part is counted whole
 * (a cached count, for a file's text) and only the text around a join that is not clean is counted
 * again, from the part's last split point to the next part's first. For a part cut at split points
 * into head + middle + tail, count(middle) = count(part) − count(head) − count(tail).
 */
export function countJoined(parts: readonly string[], count: (text: string) => number): number {
  const texts = parts.filter((part) => part !== '');
  let total = 0;
  // The text since the last split point, not counted yet.
  let open = '';
  for (let i = 0; i < texts.length; i++) {
    const part = texts[i];
    if (open !== '' && joinsCleanly(open, part)) {
      total += count(open);
      open = '';
    }
    // A part that joins cleanly on both sides is counted whole (a cached count, for a file's text).
    const cleanAfter = i + 1 === texts.length || joinsCleanly(part, texts[i + 1]);
    if (open === '' && cleanAfter) {
      total += count(part);
      continue;
    }
    const first = firstSplit(part);
    if (first === -1) {
      open += part;
      continue;
    }
    const tail = cleanAfter ? '' : part.slice(lastSplit(part));
    const head = open === '' ? '' : part.slice(0, first);
    total += count(open + head) + count(part) - count(head) - count(tail);
    open = tail;
  }
  return total + count(open);
}

/**
 * Line-bounded chunks of about `size` UTF-16 units, cut only at split points, so that
 * count(text) = Σ count(chunk); a text with no split point is one chunk.
 */
export function splitChunks(text: string, size: number): string[] {
  if (text.length <= size) return [text];
  const chunks: string[] = [];
  let start = 0;
  while (text.length - start > size) {
    const cut = firstSplit(text, start + size);
    if (cut === -1) break;
    chunks.push(text.slice(start, cut));
    start = cut;
  }
  chunks.push(text.slice(start));
  return chunks;
}
