/**
 * Each file's token count as selection asks for it: exact where a file may enter the bundle, and
 * otherwise only as much as decides the question (bounds known without counting), so a `pack --task`
 * counts the files it might place, not the whole memory.
 */
import { unitBytes } from '../text/unit-bytes.js';

export interface FileTokens {
  /** The file's exact token count (counted now when not known yet). */
  exact(i: number): number;
  /** Whether the file's exact count is more than `limit` (its bounds answer when they can). */
  over(i: number, limit: number): boolean;
  /** Whether the file is known to be over `limit` without counting it (false when only a count could tell). */
  surelyOver(i: number, limit: number): boolean;
  /** over(i, limit) when it is known without counting, else undefined. */
  overKnown(i: number, limit: number): boolean | undefined;
  /** The exact count when already known, else an estimate marked so. */
  report(i: number): { tokens: number; estimated: boolean };
}

/** Exact counts known ahead, one per file. */
export function knownTokens(tokens: readonly number[]): FileTokens {
  return { exact: (i) => tokens[i], over: (i, limit) => tokens[i] > limit, surelyOver: (i, limit) => tokens[i] > limit, overKnown: (i, limit) => tokens[i] > limit, report: (i) => ({ tokens: tokens[i], estimated: false }) };
}

/** What is known of a text's token count without counting it: at least `min`, at most `max` (its UTF-8 bytes). */
export interface TokenBounds {
  min: number;
  max: number;
}

/**
 * Each UTF-16 unit's class for tokenBounds: 1 ASCII whitespace, 2 ASCII letter or digit, 0 anything else,
 * plus 4 for a control character that neutralizeControls (markdown/escape.ts) replaces (a table of every unit: one load a character).
 */
const CLASS = new Uint8Array(65536);
for (const c of [9, 10, 11, 12, 13, 32]) CLASS[c] = 1;
for (let c = 48; c < 58; c++) CLASS[c] = 2;
for (let c = 65; c < 91; c++) CLASS[c] = CLASS[c + 32] = 2;
for (let c = 0; c < 0xa0; c++) if ((c <= 8 || c >= 0x0b) && (c < 0x20 || c >= 0x7f)) CLASS[c] |= 4;

/**
 * The byte loop's step, read at (256 while the current run is counted, else 0) + the byte: bit 0 when the
 * byte makes a run counted (min + 1), bit 1 when the run is counted after it, and the class's 4. One load
 * a byte in place of the loop's arithmetic (callgrind, the bench's 10 MB: 498 M instructions against 334 M).
 */
const STEP = new Uint8Array(512);
for (let counted = 0; counted < 2; counted++) {
  for (let b = 0; b < 256; b++) {
    const k = CLASS[b];
    const alnum = (k >> 1) & 1;
    STEP[(counted << 8) | b] = (alnum & ~counted & 1) | ((((counted | alnum) & ~k) & 1) << 1) | (k & 4);
  }
}

/**
 * Bounds on a text's token count in the o200k and cl100k encodings. At most its UTF-8 bytes (every
 * token is at least one byte). At least its whitespace-separated runs holding an ASCII letter or
 * digit: the split patterns never put letters or digits on both sides of whitespace in one piece,
 * and every piece is at least one token.
 */
export function tokenBounds(text: string): TokenBounds {
  return textBounds(text).bounds;
}

/**
 * tokenBounds, and whether the text holds a control character neutralizeControls replaces: found in
 * the same pass, so a text without one (nearly every text) is not searched for them again.
 */
export function textBounds(text: string): { bounds: TokenBounds; controls: boolean } {
  const n = text.length;
  const max = Buffer.byteLength(text, 'utf8');
  let min = 0;
  // 1 once the current run is counted (a letter or digit since the last whitespace), else 0; without branches,
  // as this runs over every character a cold scan reads. A control (4) neither counts nor ends a run,
  // except the whitespace among them (5).
  let counted = 0;
  let seen = 0;
  if (max === n) {
    // An ASCII text (a byte a unit) is read as its bytes (text/unit-bytes.ts): faster than a unit at a time.
    const bytes = unitBytes(text);
    const step = STEP;
    let row = 0;
    for (let i = 0; i < n; i++) {
      const k = step[row | bytes[i]];
      min += k & 1;
      row = (k & 2) << 7;
      seen |= k;
    }
  } else {
    for (let i = 0; i < n; i++) {
      const k = CLASS[text.charCodeAt(i)];
      const alnum = (k >> 1) & 1;
      min += alnum & ~counted;
      counted = (counted | alnum) & ~k & 1;
      seen |= k;
    }
  }
  return { bounds: { min, max }, controls: (seen & 4) !== 0 };
}

/** FileTokens over a count done on demand, with each file's bounds where known (undefined: none). */
export function lazyTokens(count: (i: number) => number, bounds: (i: number) => TokenBounds | undefined, files: number): FileTokens {
  const counts = new Float64Array(files).fill(-1);
  // Tokens and bytes of the files counted: their ratio estimates the others.
  let countedTokens = 0;
  let countedBytes = 0;
  const exact = (i: number) => {
    if (counts[i] >= 0) return counts[i];
    counts[i] = count(i);
    const b = bounds(i);
    if (b) {
      countedTokens += counts[i];
      countedBytes += b.max;
    }
    return counts[i];
  };
  return {
    exact,
    over(i, limit) {
      if (counts[i] >= 0) return counts[i] > limit;
      const b = bounds(i);
      if (b && b.max <= limit) return false;
      if (b && b.min > limit) return true;
      return exact(i) > limit;
    },
    surelyOver(i, limit) {
      if (counts[i] >= 0) return counts[i] > limit;
      const b = bounds(i);
      return b === undefined ? exact(i) > limit : b.min > limit;
    },
    overKnown(i, limit) {
      if (counts[i] >= 0) return counts[i] > limit;
      const b = bounds(i);
      return b && b.max <= limit ? false : b && b.min > limit ? true : undefined;
    },
    report(i) {
      if (counts[i] >= 0) return { tokens: counts[i], estimated: false };
      const b = bounds(i);
      if (!b) return { tokens: exact(i), estimated: false };
      // At the ratio of the files counted (about four bytes a token before any), within the bounds.
      const ratio = countedBytes > 0 ? countedTokens / countedBytes : 1 / 4;
      return { tokens: Math.max(b.min, Math.min(b.max, Math.round(b.max * ratio))), estimated: true };
    },
  };
}
