/**
 * Exact token counts for short texts (a flush summary, a few hundred tokens) without the split
 * pattern's regular expression: V8 spends about 8 ms compiling and first running the o200k pattern
 * (its Unicode property classes), several times what counting such a text takes. The pieces are
 * found by hand here, alternative by alternative in the pattern's order and with its backtracking,
 * which tests check against js-tiktoken's own regex on random text. Longer texts go to the bulk
 * counter (tokens/count.ts), which amortises the regex over many pieces.
 */
import { countPieceTokens, utf8Binary, type RankTable } from './bpe.js';
import { loadTokenCounterSync, type TokenCounter } from './count.js';
import type { EncodingName } from './encodings.js';
import { loadRanks } from './rank-file.js';

/**
 * Texts up to this many UTF-16 units are split by hand; longer ones go to the bulk counter. Split by
 * hand, a cold process spends about 1 µs a character: past a few thousand characters the regex's
 * 8 ms are the cheaper way.
 */
export const SMALL_TEXT = 4 * 1024;

// Character classes, as bits.
const L = 1; // \p{L}
const N = 2; // \p{N}
const S = 4; // \s
const U = 8; // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
const W = 16; // [\p{Ll}\p{Lm}\p{Lo}\p{M}]
const NL = 32; // [\r\n]

const ascii = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if (c >= 65 && c <= 90) ascii[c] = L | U;
  else if (c >= 97 && c <= 122) ascii[c] = L | W;
  else if (c >= 48 && c <= 57) ascii[c] = N;
  else if ((c >= 9 && c <= 13) || c === 32) ascii[c] = S | (c === 10 || c === 13 ? NL : 0);
}

/** Classes of other characters, each found once by small regexes compiled on first use. */
let wide: { map: Map<number, number>; tests: Array<[RegExp, number]> } | undefined;

/** Latin-1's letters and numbers (the rest of U+0080–U+00FF is punctuation and symbols, U+00A0 a space). */
function latin1Class(cp: number): number {
  if (cp === 0xa0) return S;
  if (cp === 0xaa || cp === 0xba) return L | U | W;
  if (cp === 0xb5) return L | W;
  if (cp === 0xb2 || cp === 0xb3 || cp === 0xb9 || (cp >= 0xbc && cp <= 0xbe)) return N;
  if (cp >= 0xc0 && cp <= 0xde && cp !== 0xd7) return L | U;
  if (cp >= 0xdf && cp !== 0xf7) return L | W;
  return 0;
}

/**
 * The class of the characters summaries hold most beyond ASCII (Latin-1, dashes and quotes, arrows
 * and symbols, emoji and their variation selectors) without compiling a Unicode property regex;
 * undefined for the rest. A test checks every code point of these ranges against the regexes.
 */
export function knownClass(cp: number): number | undefined {
  if (cp >= 0x80 && cp <= 0xff) return latin1Class(cp);
  if (cp >= 0x2000 && cp <= 0x206f) return cp <= 0x200a || cp === 0x2028 || cp === 0x2029 || cp === 0x202f || cp === 0x205f ? S : 0;
  if ((cp >= 0x2190 && cp <= 0x245f) || (cp >= 0x2500 && cp <= 0x2775) || (cp >= 0x2794 && cp <= 0x27bf) || (cp >= 0x1f300 && cp <= 0x1faff)) return 0;
  if (cp >= 0xfe00 && cp <= 0xfe0f) return U | W;
  return undefined;
}

/**
 * The split pattern's classes as regex sources. Built with `new RegExp` on first use, not written as
 * literals: V8 checks a literal's Unicode property classes when it parses the module (about 8 M
 * instructions of every import on Node 20), and most texts never need them.
 */
const CLASS_TESTS: Array<[string, number]> = [
  ['^\\p{L}$', L],
  ['^\\p{N}$', N],
  ['^\\s$', S],
  ['^[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]$', U],
  ['^[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]$', W],
  ['^[\\r\\n]$', NL],
];

/** A character's class by the regexes of the split pattern's classes (compiled on first use, each answer kept). */
export function regexClass(cp: number): number {
  wide ??= { map: new Map(), tests: CLASS_TESTS.map(([source, bit]) => [new RegExp(source, 'u'), bit]) };
  let bits = wide.map.get(cp);
  if (bits === undefined) {
    const ch = String.fromCodePoint(cp);
    bits = 0;
    for (const [re, bit] of wide.tests) if (re.test(ch)) bits |= bit;
    wide.map.set(cp, bits);
  }
  return bits;
}

/** A character's class: ASCII and the common ranges from tables, the rest by regex. */
export function classOf(cp: number): number {
  return cp < 128 ? ascii[cp] : knownClass(cp) ?? regexClass(cp);
}

/** The text as code points (what the pattern's `u` flag matches), with each one's class and UTF-16 offset. */
interface Points {
  cp: number[];
  cls: number[];
  /** UTF-16 offset of code point i; at[n] is the text's length. */
  at: number[];
}

function pointsOf(text: string): Points {
  const cp: number[] = [];
  const cls: number[] = [];
  const at: number[] = [];
  for (let i = 0; i < text.length; ) {
    const c = text.codePointAt(i)!;
    at.push(i);
    cp.push(c);
    cls.push(classOf(c));
    i += c > 0xffff ? 2 : 1;
  }
  at.push(text.length);
  return { cp, cls, at };
}

const APOSTROPHE = 39;
const SPACE = 32;
const SLASH = 47;

/** `('s|'S|'t|'T|'re|…|'d|'D)` at i: its end, or -1. */
function contraction(p: Points, i: number): number {
  if (p.cp[i] !== APOSTROPHE) return -1;
  // Lower-casing by setting bit 5 maps only the ASCII letter pairs onto these (past the end: 32).
  const a = p.cp[i + 1] | 32;
  if (a === 115 || a === 116 || a === 109 || a === 100) return i + 2; // s t m d
  const b = p.cp[i + 2] | 32;
  if ((a === 114 && b === 101) || (a === 118 && b === 101) || (a === 108 && b === 108)) return i + 3; // re ve ll
  return -1;
}

/** The end of the longest run of characters of class `bit` from i. */
function run(p: Points, i: number, bit: number): number {
  const n = p.cls.length;
  while (i < n && p.cls[i] & bit) i++;
  return i;
}

/** `[^\r\n\p{L}\p{N}]`: may start a word (a space, punctuation, a mark). */
const isPrefix = (bits: number) => !(bits & (L | N | NL));
/** `[^\s\p{L}\p{N}]`: punctuation and symbols. */
const isSymbol = (bits: number) => !(bits & (L | N | S));

/** The whitespace alternatives shared by both patterns: `\s*[\r\n]+|\s+(?!\S)|\s+`; -1 when i is no whitespace. */
function whitespace(p: Points, i: number): number {
  const end = run(p, i, S);
  if (end === i) return -1;
  for (let k = end - 1; k >= i; k--) if (p.cls[k] & NL) return k + 1;
  if (end === p.cls.length || end - i === 1) return end;
  return end - 1;
}

/** ` ?[^\s\p{L}\p{N}]+` then `[\r\n/]*` (o200k) or `[\r\n]*` (cl100k); -1 when it does not match at i. */
function symbols(p: Points, i: number, slash: boolean): number {
  let start = i;
  if (p.cp[i] === SPACE && i + 1 < p.cls.length && isSymbol(p.cls[i + 1])) start = i + 1;
  else if (!(i < p.cls.length && isSymbol(p.cls[i]))) return -1;
  let end = start;
  while (end < p.cls.length && isSymbol(p.cls[end])) end++;
  while (end < p.cls.length && (p.cls[end] & NL || (slash && p.cp[end] === SLASH))) end++;
  return end;
}

/** `\p{N}{1,3}`. */
function digits(p: Points, i: number): number {
  let end = i;
  while (end < p.cls.length && end - i < 3 && p.cls[end] & N) end++;
  return end === i ? -1 : end;
}

/** The starts a word may take: after a prefix character when there is one (tried first), then at i. */
function starts(p: Points, i: number): number[] {
  return isPrefix(p.cls[i]) && i + 1 < p.cls.length ? [i + 1, i] : [i];
}

/** The end of the o200k_base piece starting at i. */
function o200kPiece(p: Points, i: number): number {
  const optionalContraction = (end: number) => {
    const c = contraction(p, end);
    return c < 0 ? end : c;
  };
  // [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(contraction)?
  for (const start of starts(p, i)) {
    const upper = run(p, start, U);
    for (let j = upper; j >= start; j--) if (p.cls[j] & W) return optionalContraction(run(p, j, W));
  }
  // [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(contraction)?
  for (const start of starts(p, i)) {
    const upper = run(p, start, U);
    if (upper > start) return optionalContraction(run(p, upper, W));
  }
  let end = digits(p, i);
  if (end < 0) end = symbols(p, i, true);
  if (end < 0) end = whitespace(p, i);
  return end;
}

/** The end of the cl100k_base piece starting at i. */
function cl100kPiece(p: Points, i: number): number {
  let end = contraction(p, i);
  if (end >= 0) return end;
  // [^\r\n\p{L}\p{N}]?\p{L}+
  for (const start of starts(p, i)) {
    end = run(p, start, L);
    if (end > start) return end;
  }
  end = digits(p, i);
  if (end < 0) end = symbols(p, i, false);
  if (end < 0) end = whitespace(p, i);
  return end;
}

const PIECE: Record<EncodingName, (p: Points, i: number) => number> = { o200k_base: o200kPiece, cl100k_base: cl100kPiece };

/** The encoding's pre-token pieces of a text, as its split pattern finds them. */
export function splitPieces(text: string, encoding: EncodingName): string[] {
  const p = pointsOf(text);
  const piece = PIECE[encoding];
  const out: string[] = [];
  for (let i = 0; i < p.cls.length; ) {
    const end = piece(p, i);
    if (end <= i) throw new Error(`no ${encoding} piece at code point ${i}`);
    out.push(text.slice(p.at[i], p.at[end]));
    i = end;
  }
  return out;
}

const tables = new Map<EncodingName, RankTable>();

/** Characters a counter splits by hand in all; past this it hands every text to the bulk counter, whose regex is then worth compiling. */
const SMALL_BUDGET = 4 * 1024;

/**
 * A counter for an encoding that splits short texts by hand and hands longer ones to the bulk
 * counter (loaded only then, and used for every text after); the rank table is read on the first
 * count. A caller that counts a lot (a summary measured again at each shortening step) moves to the
 * bulk counter once the texts it counted add up to SMALL_BUDGET.
 */
export function smallTextCounter(encoding: EncodingName): TokenCounter {
  let spent = 0;
  let bulk: TokenCounter | undefined;
  const pieces = new Map<string, number>();
  return {
    encoding,
    count(text: string): number {
      // Once the bulk counter is loaded, its compiled regex is the faster way for every text.
      if (bulk || text.length > SMALL_TEXT || spent > SMALL_BUDGET) return (bulk ??= loadTokenCounterSync(encoding)).count(text);
      spent += text.length;
      let table = tables.get(encoding);
      if (!table) {
        table = loadRanks(encoding).table;
        tables.set(encoding, table);
      }
      let total = 0;
      for (const piece of splitPieces(text, encoding)) {
        let n = pieces.get(piece);
        if (n === undefined) {
          n = countPieceTokens(utf8Binary(piece), table);
          pieces.set(piece, n);
        }
        total += n;
      }
      return total;
    },
  };
}
