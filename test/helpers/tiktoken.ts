import { Tiktoken, type TiktokenBPE } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import cl100k from 'js-tiktoken/ranks/cl100k_base';

const encoders = new Map<TiktokenBPE, Tiktoken>();

/** Pieces remembered per encoder; past this, new pieces are encoded but not kept. */
const MAX_PIECES = 200_000;

/**
 * js-tiktoken's bytePairEncode on one piece's bytes, with the same result: merge the adjacent pair of
 * lowest rank (the leftmost of equal ones) until none has a rank, then the rank of each part (parts
 * without one left out). js-tiktoken looks up every pair again after each merge; here each pair's
 * rank is kept and only the two pairs a merge touches are looked up again (quadratic string work
 * becomes linear: most of the suite's token tests' time was spent there).
 */
function bytePairEncode(piece: Uint8Array, ranks: Map<string, number>): number[] {
  // Each part as its key in `ranks`: its bytes joined with commas.
  const parts = Array.from(piece, String);
  const pairRank = (i: number) => (i >= 0 && i + 1 < parts.length ? ranks.get(`${parts[i]},${parts[i + 1]}`) : undefined);
  const pairs = parts.slice(1).map((_, i) => pairRank(i));
  for (;;) {
    let best = -1;
    for (let i = 0; i < pairs.length; i++) if (pairs[i] !== undefined && (best < 0 || pairs[i]! < pairs[best]!)) best = i;
    if (best < 0) break;
    parts.splice(best, 2, `${parts[best]},${parts[best + 1]}`);
    pairs.splice(best, 1);
    if (best < pairs.length) pairs[best] = pairRank(best);
    if (best > 0) pairs[best - 1] = pairRank(best - 1);
  }
  return parts.map((part) => ranks.get(part)).filter((rank) => rank != null);
}

/**
 * js-tiktoken's encode, remembering each piece's tokens. With no special token allowed, js-tiktoken
 * splits the whole text with the pattern `pat_str` and encodes every match on its own: the piece's
 * rank when the whole piece is a token, else bytePairEncode (above) on its UTF-8 bytes. The tokens of
 * a text are the tokens of its pieces, in order: here a piece seen before is not merged again. Any
 * other call (allowed or disallowed special tokens present) is js-tiktoken's unchanged; count.test.ts
 * checks both against js-tiktoken's own encode.
 */
function remembering(encoder: Tiktoken): Tiktoken {
  const plain = Tiktoken.prototype.encode;
  const internals = encoder as unknown as { patStr: string; specialTokens: Record<string, number>; rankMap: Map<string, number> };
  const utf8 = new TextEncoder();
  const split = new RegExp(internals.patStr, 'ug');
  const specials = Object.keys(internals.specialTokens);
  const pieces = new Map<string, number[]>();
  encoder.encode = (text, allowedSpecial = [], disallowedSpecial = 'all') => {
    const checksSpecials = allowedSpecial === 'all' || allowedSpecial.length > 0 || disallowedSpecial === 'all' || disallowedSpecial.length > 0;
    if (checksSpecials && specials.some((special) => text.includes(special))) return plain.call(encoder, text, allowedSpecial, disallowedSpecial);
    const out: number[] = [];
    for (const [piece] of text.matchAll(split)) {
      let tokens = pieces.get(piece);
      if (tokens === undefined) {
        const bytes = utf8.encode(piece);
        const rank = internals.rankMap.get(bytes.join(','));
        tokens = rank === undefined ? bytePairEncode(bytes, internals.rankMap) : [rank];
        if (pieces.size < MAX_PIECES) pieces.set(piece, tokens);
      }
      for (const token of tokens) out.push(token);
    }
    return out;
  };
  return encoder;
}

/**
 * A js-tiktoken encoder with the table its `encode` reads (`rankMap`: the bytes of each token, joined
 * with commas, to its rank), filled straight from the rank file: the constructor first gathers every
 * token into one plain object, which takes twice as long as this. `textMap` (rank to bytes), which only
 * `decode` reads, stays empty: it would double the time and hold 70 MB more in each test worker, so
 * `decode` throws. count.test.ts checks the table against the constructor's.
 */
function buildEncoder(ranks: TiktokenBPE): Tiktoken {
  const encoder = new Tiktoken({ ...ranks, bpe_ranks: '' });
  const { rankMap } = encoder as unknown as { rankMap: Map<string, number> };
  for (const line of ranks.bpe_ranks.split('\n')) {
    if (!line) continue;
    const [, offset, ...tokens] = line.split(' ');
    const first = Number.parseInt(offset, 10);
    tokens.forEach((token, i) => rankMap.set(Buffer.from(token, 'base64').join(','), first + i));
  }
  encoder.decode = () => {
    throw new Error('the test yardstick (test/helpers/tiktoken.ts) only encodes: it keeps no table from ranks to bytes');
  };
  return encoder;
}

/**
 * js-tiktoken, the yardstick token counts are checked against: one encoder per rank file, built on
 * first use and shared by every test in this worker, its pieces remembered (see `remembering`: the
 * same tokens as a plain encoder, without merging a piece twice).
 */
export function yardstick(ranks: TiktokenBPE): Tiktoken {
  let encoder = encoders.get(ranks);
  if (encoder === undefined) encoders.set(ranks, (encoder = remembering(buildEncoder(ranks))));
  return encoder;
}

export const tiktoken = {
  get o200k_base(): Tiktoken {
    return yardstick(o200k);
  },
  get cl100k_base(): Tiktoken {
    return yardstick(cl100k);
  },
};
