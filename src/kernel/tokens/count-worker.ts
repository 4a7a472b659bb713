/**
 * A worker thread that counts the texts it is sent (tokens/background.ts starts it), each batch only if it claims it first,
 * and (with `secrets`) says which texts might hold a secret (lint/secrets.ts maybeSecret).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createTokenCounter, type EncodingName } from './count.js';
import { maybeSecret } from '../lint/secrets.js';

const data = workerData as { encoding: EncodingName; secrets?: boolean };
const counter = createTokenCounter(data.encoding);
parentPort?.on('message', ({ id, texts, claim }: { id: number; texts: string[]; claim: Int32Array }) => {
  if (Atomics.compareExchange(claim, 0, 0, 1) !== 0) {
    parentPort?.postMessage({ id, counts: null, hits: [] });
    return;
  }
  const counts = texts.map((text) => counter.count(text));
  const hits = data.secrets === true ? texts.flatMap((text, i) => (maybeSecret(text) ? [i] : [])) : [];
  parentPort?.postMessage({ id, counts, hits });
});
