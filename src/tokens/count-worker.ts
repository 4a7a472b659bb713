/** A worker thread that counts the texts it is sent (tokens/background.ts starts it), each batch only if it claims it first. */
import { parentPort, workerData } from 'node:worker_threads';
import { createTokenCounter, type EncodingName } from './count.js';

const counter = createTokenCounter((workerData as { encoding: EncodingName }).encoding);
parentPort?.on('message', ({ id, texts, claim }: { id: number; texts: string[]; claim: Int32Array }) => {
  if (Atomics.compareExchange(claim, 0, 0, 1) !== 0) parentPort?.postMessage({ id, counts: null });
  else parentPort?.postMessage({ id, counts: texts.map((text) => counter.count(text)) });
});
