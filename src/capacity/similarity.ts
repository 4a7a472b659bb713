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
  return diceOf(multiset(a), a.length, multiset(b), b.length);
}

function diceOf(a: Map<string, number>, sizeA: number, b: Map<string, number>, sizeB: number): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let common = 0;
  for (const [k, n] of small) common += Math.min(n, large.get(k) ?? 0);
  return (2 * common) / (sizeA + sizeB);
}

/** A tool output prepared for comparison: its normalised lines, and (made when first needed) its trigrams. */
export interface Fingerprint {
  lines: string[];
  lineSet: Map<string, number>;
  tri?: { set: Map<string, number>; size: number };
}

export function fingerprint(lines: string[]): Fingerprint {
  return { lines, lineSet: multiset(lines) };
}

function tri(f: Fingerprint): { set: Map<string, number>; size: number } {
  if (!f.tri) {
    const t = trigrams(f.lines.join('\n'));
    f.tri = { set: multiset(t), size: t.length };
  }
  return f.tri;
}

/**
 * Similarity of two normalised outputs, 0-1: the Dice coefficient of their lines when both have 3
 * or more, else of their character trigrams.
 */
export function similarity(a: string[] | Fingerprint, b: string[] | Fingerprint): number {
  const fa = Array.isArray(a) ? fingerprint(a) : a;
  const fb = Array.isArray(b) ? fingerprint(b) : b;
  if (fa.lines.length === fb.lines.length && fa.lines.every((l, i) => l === fb.lines[i])) return 1;
  if (fa.lines.length >= 3 && fb.lines.length >= 3) return diceOf(fa.lineSet, fa.lines.length, fb.lineSet, fb.lines.length);
  const ta = tri(fa);
  const tb = tri(fb);
  return diceOf(ta.set, ta.size, tb.set, tb.size);
}

/** similarity(a, b) >= threshold, skipping the work when the sizes alone rule it out. */
export function isNearDuplicate(a: Fingerprint, b: Fingerprint, threshold: number): boolean {
  const bound = (x: number, y: number) => (2 * Math.min(x, y)) / (x + y);
  if (a.lines.length >= 3 && b.lines.length >= 3) {
    if (bound(a.lines.length, b.lines.length) < threshold) return false;
  } else {
    // trigram counts are about the text lengths
    const la = a.lines.join('\n').length;
    const lb = b.lines.join('\n').length;
    if (la + lb > 0 && bound(Math.max(la - 2, 1), Math.max(lb - 2, 1)) < threshold) return false;
  }
  return similarity(a, b) >= threshold;
}
