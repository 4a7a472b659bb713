/** A worker thread that counts the texts it is sent (tokens/background.ts starts it). */
import { parentPort, workerData } from 'node:worker_threads';
import { createTokenCounter, type EncodingName } from './count.js';

const counter = createTokenCounter((workerData as { encoding: EncodingName }).encoding);
parentPort?.on('message', ({ id, texts }: { id: number; texts: string[] }) => {
  parentPort?.postMessage({ id, counts: texts.map((text) => counter.count(text)) });
});
