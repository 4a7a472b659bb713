/**
 * Exact token counts with js-tiktoken, loaded lazily. BPE works on each piece of the encoding's
 * split pattern on its own, so counting each distinct piece once and summing gives the same total
 * as encoding the whole text.
 */

import { createLongPieceCounter } from './long-piece.js';

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

/** Pieces longer than this (characters) are counted by long-piece.ts; shorter ones by js-tiktoken. */
const LONG_PIECE = 128;

const loaded = new Map<EncodingName, Promise<TokenCounter>>();

async function createCounter(encoding: EncodingName): Promise<TokenCounter> {
  const { Tiktoken } = await import('js-tiktoken/lite');
  const ranks = encoding === 'o200k_base'
    ? (await import('js-tiktoken/ranks/o200k_base')).default
    : (await import('js-tiktoken/ranks/cl100k_base')).default;
  const tiktoken = new Tiktoken(ranks);
  const pattern = new RegExp(ranks.pat_str, 'gu');
  const pieces = new Map<string, number>();
  let countLong: ((piece: string) => number) | undefined;
  const countPiece = (piece: string): number => {
    let n = pieces.get(piece);
    if (n === undefined) {
      // js-tiktoken's merge loop is quadratic in a piece's length: long pieces take the heap path
      if (piece.length > LONG_PIECE) n = (countLong ??= createLongPieceCounter(ranks))(piece);
      else n = tiktoken.encode(piece, [], []).length;
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
