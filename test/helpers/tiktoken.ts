import { Tiktoken, type TiktokenBPE } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import cl100k from 'js-tiktoken/ranks/cl100k_base';

const encoders = new Map<TiktokenBPE, Tiktoken>();

/**
 * js-tiktoken, the yardstick token counts are checked against: one encoder per rank file, built on
 * first use and shared by every test in this worker (building one takes about half a second).
 */
export function yardstick(ranks: TiktokenBPE): Tiktoken {
  let encoder = encoders.get(ranks);
  if (encoder === undefined) encoders.set(ranks, (encoder = new Tiktoken(ranks)));
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
