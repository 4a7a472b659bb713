/**
 * When token counts add up. Both encodings' split patterns end a piece at a newline unless the next
 * character is whitespace or `/` (o200k_base lets `/` follow punctuation and newlines), and no
 * piece looks behind. So for a text `a` ending in "\n" and a text `b` starting with any other
 * character, the pieces of `a + b` are the pieces of `a` followed by those of `b`, and
 * count(a + b) = count(a) + count(b). Tests check this against js-tiktoken on random text.
 */

const UNSAFE_START = /^[\s/]/u;

/** True when count(left + right) is exactly count(left) + count(right). */
export function joinsCleanly(left: string, right: string): boolean {
  if (left === '' || right === '') return true;
  return left.endsWith('\n') && !UNSAFE_START.test(right);
}

/** The exact count of parts.join(''), counting each run of cleanly joined parts on its own. */
export function countJoined(parts: readonly string[], count: (text: string) => number): number {
  let total = 0;
  let run = '';
  for (const part of parts) {
    if (part === '') continue;
    if (run !== '' && !joinsCleanly(run, part)) {
      run += part;
      continue;
    }
    total += count(run);
    run = part;
  }
  return total + count(run);
}
