/**
 * Exact token counts over js-tiktoken's rank tables, loaded lazily (tokens/rank-file.ts). BPE works
 * on each piece of the encoding's split pattern on its own, so counting each distinct piece once and
 * summing gives the same total as encoding the whole text. Special-token strings such as
 * <|endoftext|> are ordinary text here: they are split and merged like any other characters, exactly
 * as js-tiktoken's `encode(text, [], [])` does.
 */
import { countPieceTokens, utf8Binary } from './bpe.js';
import { splitChunks } from './join.js';
import { loadRanks } from './rank-file.js';

import { DEFAULT_ENCODING, type EncodingName } from './encodings.js';

export { DEFAULT_ENCODING, ENCODINGS, isEncodingName, type EncodingName } from './encodings.js';

export interface TokenCounter {
  encoding: EncodingName;
  /** Exact token count; special-token strings such as <|endoftext|> count as ordinary text. */
  count(text: string): number;
}

/** Pieces longer than this are counted but not remembered. */
const MAX_CACHED_PIECE = 256;
/** Distinct pieces remembered per encoding. */
const MAX_PIECES = 1_000_000;

/** A new counter with its own piece cache (loads the rank table); most code wants loadTokenCounter. */
export function createTokenCounter(encoding: EncodingName): TokenCounter {
  const { table, patStr } = loadRanks(encoding);
  loadedEncodings.add(encoding);
  // The pieces follow one another (every character is in one): each is matched where the last ended,
  // by test(), which builds no match array. Where none starts there, exec() finds the next, as before
  // (with a pattern made on first need: compiling one costs milliseconds).
  const sticky = new RegExp(patStr, 'yu');
  let pattern: RegExp | undefined;
  const pieces = new Map<string, number>();
  const countText = (text: string): number => {
    let total = 0;
    for (let at = 0; at < text.length; ) {
      let start = at;
      sticky.lastIndex = at;
      if (sticky.test(text)) at = sticky.lastIndex;
      else {
        pattern ??= new RegExp(patStr, 'gu');
        pattern.lastIndex = at;
        const match = pattern.exec(text);
        if (match === null) break;
        start = match.index;
        at = pattern.lastIndex;
      }
      const piece = text.slice(start, at);
      let n = pieces.get(piece);
      if (n === undefined) {
        n = countPieceTokens(utf8Binary(piece), table);
        if (piece.length <= MAX_CACHED_PIECE && pieces.size < MAX_PIECES) pieces.set(piece, n);
      }
      total += n;
    }
    return total;
  };
  return {
    encoding,
    count(text: string): number {
      if (text.length <= CHUNK) return countText(text);
      // A long text in line-bounded chunks (the sum is exact, tokens/join.ts): the regex runs over
      // short strings, which was faster on a 10 MB bundle stored two bytes a character.
      let total = 0;
      for (const chunk of splitChunks(text, CHUNK)) total += countText(chunk);
      return total;
    },
  };
}

/** Texts longer than this (UTF-16 units) are counted in line-bounded chunks of about this size. */
const CHUNK = 64 * 1024;

const counters = new Map<EncodingName, TokenCounter>();
const loadedEncodings = new Set<EncodingName>();

/** The counter for an encoding, loading its rank file now if needed (synchronous). */
export function loadTokenCounterSync(encoding: EncodingName = DEFAULT_ENCODING): TokenCounter {
  let counter = counters.get(encoding);
  if (!counter) {
    counter = createTokenCounter(encoding);
    counters.set(encoding, counter);
  }
  return counter;
}

/** The counter for an encoding; its rank file is loaded on the first call only. */
export async function loadTokenCounter(encoding: EncodingName = DEFAULT_ENCODING): Promise<TokenCounter> {
  return loadTokenCounterSync(encoding);
}

/** Whether any rank file (the tokenizer proper) has been loaded in this process. */
export function tokenizerLoaded(): boolean {
  return loadedEncodings.size > 0;
}
