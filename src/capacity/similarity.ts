/**
 * Near-duplicate detection for tool outputs: normalise away what changes between two runs of the
 * same command (timestamps, durations, ids), then compare.
 */

const RULES: [RegExp, string][] = [
  [/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g, '<time>'],
  [/\b\d{4}-\d{2}-\d{2}\b/g, '<date>'],
  [/\b\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?\b/g, '<time>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<id>'],
  [/\b(?:toolu|msg|req|call|chatcmpl|run|sess|evt|resp)_[A-Za-z0-9]+\b/g, '<id>'],
  [/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,64}\b/gi, '<id>'],
  [/\b\d+(?:\.\d+)?\s?(?:ms|s|sec|secs|seconds|m|min|µs|us|ns)\b/g, '<duration>'],
  [/\b\d{5,}\b/g, '<n>'],
];

/** The output's lines with timestamps, durations and ids replaced by placeholders, trimmed. */
export function normalizeOutput(text: string): string[] {
  let t = text;
  for (const [pattern, replacement] of RULES) t = t.replace(pattern, replacement);
  return t.split('\n').map((l) => l.trim()).filter((l) => l !== '');
}

function multiset(items: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const x of items) m.set(x, (m.get(x) ?? 0) + 1);
  return m;
}

function trigrams(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 3 <= text.length; i++) out.push(text.slice(i, i + 3));
  return out.length ? out : [text];
}

/** Dice coefficient of two multisets given as lists: 2|A∩B| / (|A| + |B|). */
export function dice(a: string[], b: string[]): number {
  if (!a.length && !b.length) return 1;
  const ma = multiset(a);
  let common = 0;
  for (const x of b) {
    const n = ma.get(x);
    if (n) {
      common++;
      ma.set(x, n - 1);
    }
  }
  return (2 * common) / (a.length + b.length);
}

/** What two outputs are compared by: their normalised lines, or character trigrams when there are fewer than 3 lines. */
export function features(lines: string[]): string[] {
  return lines.length >= 3 ? lines : trigrams(lines.join('\n'));
}

/** Similarity of two normalised outputs, 0-1: the Dice coefficient of their features. */
export function similarity(a: string[], b: string[]): number {
  if (a.length === b.length && a.every((l, i) => l === b[i])) return 1;
  const fa = features(a);
  const fb = features(b);
  if ((fa === a) !== (fb === b)) return dice(trigrams(a.join('\n')), trigrams(b.join('\n')));
  return dice(fa, fb);
}

/** similarity(a, b) >= threshold, skipping the count when the sizes alone rule it out. */
export function isNearDuplicate(a: string[], b: string[], threshold: number): boolean {
  const small = Math.min(a.length, b.length);
  const large = Math.max(a.length, b.length);
  if (large > 0 && (2 * small) / (small + large) < threshold) {
    // Dice can be no higher than this; but a short output compares by trigrams, so only rule out when both have 3+ lines
    if (small >= 3) return false;
  }
  return similarity(a, b) >= threshold;
}
