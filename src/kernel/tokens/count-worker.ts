/**
 * A worker thread that counts the texts it is sent (tokens/background.ts starts it), each batch only if it claims it first,
 * and says which texts one of its patterns matches.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { anyMatch } from './background.js';
import { createTokenCounter, type EncodingName } from './count.js';

const data = workerData as { encoding: EncodingName; patterns?: { source: string; flags: string }[] };
const counter = createTokenCounter(data.encoding);
const patterns = (data.patterns ?? []).map((p) => new RegExp(p.source, p.flags));
parentPort?.on('message', ({ id, texts, claim }: { id: number; texts: string[]; claim: Int32Array }) => {
  if (Atomics.compareExchange(claim, 0, 0, 1) !== 0) {
    parentPort?.postMessage({ id, counts: null, hits: [] });
    return;
  }
  const counts = texts.map((text) => counter.count(text));
  const hits = patterns.length > 0 ? texts.flatMap((text, i) => (anyMatch(patterns, text) ? [i] : [])) : [];
  parentPort?.postMessage({ id, counts, hits });
});
