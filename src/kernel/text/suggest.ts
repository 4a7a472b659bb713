/** "Did you mean": the one edit-distance helper, for mistyped option values, rule ids and keys. */

/** Edit distance: insertions, deletions, substitutions, and swapping two neighbours ("sarfi" → "sarif") as one edit. */
export function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j], before[j - 2] + 1);
    }
    before = prev;
    prev = row;
  }
  return prev[b.length];
}

/**
 * The known value closest to a mistyped one (case ignored), or undefined when none is close:
 * at most `maxEdits` edits away (default: a third of the value's length, 1 to 3).
 */
export function closestMatch(value: string, known: readonly string[], maxEdits?: number): string | undefined {
  const typed = value.toLowerCase();
  const limit = maxEdits ?? Math.min(3, Math.max(1, Math.floor(typed.length / 3)));
  let best: { k: string; d: number } | undefined;
  for (const k of known) {
    const d = editDistance(typed, k.toLowerCase());
    if (d <= limit && (!best || d < best.d)) best = { k, d };
  }
  return best?.k;
}
