/**
 * Exact token counts from js-tiktoken's ranks, loaded lazily (the merges themselves are in bpe.ts).
 * BPE works on each piece of the encoding's split pattern on its own, so counting each distinct piece
 * once and summing gives the same total as encoding the whole text.
 */

import { createPieceCounter } from './bpe.js';

export const ENCODINGS = ['o200k_base', 'cl100k_base'] as const;
export type EncodingName = (typeof ENCODINGS)[number];
export const DEFAULT_ENCODING: EncodingName = 'o200k_base';

export interface TokenCounter {
  encoding: EncodingName;
  /** Exact token count; special-token strings such as <|endoftext|> count as ordinary text. */
  count(text: string): number;
}

export function isEncodingName(value: string): value is EncodingName {
  return (ENCODINGS as readonly string[]).includes(value);
}

const loaded = new Map<EncodingName, Promise<TokenCounter>>();

async function createCounter(encoding: EncodingName): Promise<TokenCounter> {
  const ranks = encoding === 'o200k_base'
    ? (await import('js-tiktoken/ranks/o200k_base')).default
    : (await import('js-tiktoken/ranks/cl100k_base')).default;
  const pattern = new RegExp(ranks.pat_str, 'gu');
  const pieces = new Map<string, number>();
  // js-tiktoken's encode() is slow per call and quadratic in a piece's length: count pieces directly
  const countNew = createPieceCounter(ranks);
  const countPiece = (piece: string): number => {
    // short pieces are mostly whole tokens: one lookup, cheaper than caching them
    if (piece.length < 8) return countNew(piece);
    let n = pieces.get(piece);
    if (n === undefined) {
      n = countNew(piece);
      if (pieces.size < 1_000_000) pieces.set(piece, n);
    }
    return n;
  };
  return {
    encoding,
    count(text: string): number {
      let total = 0;
      for (const match of text.matchAll(pattern)) total += countPiece(match[0]);
      return total;
    },
  };
}

/** The counter for an encoding; js-tiktoken and its ranks are imported on the first call only. */
export function loadTokenCounter(encoding: EncodingName = DEFAULT_ENCODING): Promise<TokenCounter> {
  let counter = loaded.get(encoding);
  if (!counter) {
    counter = createCounter(encoding);
    loaded.set(encoding, counter);
  }
  return counter;
}
