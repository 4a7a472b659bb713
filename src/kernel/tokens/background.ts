/**
 * Counting many texts on a worker thread while the caller goes on: a cold `pack` hands each file's
 * text over as it scans, and the counts are ready when the scan is done. Below `minBytes` of text,
 * or when the worker cannot start or fails, the texts are counted on this thread instead: the counts
 * are the same either way.
 */
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { loadTokenCounterSync, type EncodingName } from './count.js';
import { builtFiles } from './rank-file.js';
import { maybeSecret } from '../lint/secrets.js';

export interface BackgroundCounter {
  /** Queue a text; its count comes back under `key`. */
  add(key: string, text: string): void;
  /** Every queued text's count by key; ends the worker. */
  counts(): Promise<Map<string, number>>;
  /** The keys of the queued texts that might hold a secret (with `secrets`): complete once `counts()` has answered. */
  readonly matched: ReadonlySet<string>;
  /** Whether a worker thread counted. */
  readonly usedWorker: boolean;
  /** Ends the worker if `counts()` has not (on an error path); harmless after it. */
  stop(): void;
}

export interface BackgroundOptions {
  /** Start a worker only once this much text (in UTF-16 units) is queued. */
  minBytes: number;
  /** Texts sent to the worker per message, by size. */
  batchBytes?: number;
  /** The worker script (tests point it elsewhere); default count-worker.cjs as bundled (count-worker.js as tsc builds it). */
  workerFile?: URL;
  /** Also test each text with lint/secrets.ts maybeSecret, where it is counted: see `matched`. */
  secrets?: boolean;
}


interface Batch {
  keys: string[];
  texts: string[];
  bytes: number;
}

interface SentBatch extends Batch {
  /** 0 while unclaimed; the worker or this thread sets it (compare-and-swap) to count the batch. */
  claim: Int32Array;
}

export function backgroundCounter(encoding: EncodingName, options: BackgroundOptions): BackgroundCounter {
  const batchBytes = options.batchBytes ?? 128 * 1024;
  const results = new Map<string, number>();
  const matched = new Set<string>();
  const secrets = options.secrets === true;
  const sent = new Map<number, SentBatch>();
  let waiting: Batch = { keys: [], texts: [], bytes: 0 };
  let queuedBytes = 0;
  let worker: Worker | undefined;
  let failed = false;
  let started = false;
  let nextId = 0;
  let settle: (() => void) | undefined;

  const countHere = (batch: Batch) => {
    if (batch.texts.length === 0) return;
    const counter = loadTokenCounterSync(encoding);
    batch.texts.forEach((text, i) => {
      results.set(batch.keys[i], counter.count(text));
      if (secrets && maybeSecret(text)) matched.add(batch.keys[i]);
    });
  };

  const send = () => {
    if (waiting.keys.length === 0) return;
    const id = nextId++;
    const claim = new Int32Array(new SharedArrayBuffer(4));
    sent.set(id, { ...waiting, claim });
    worker!.postMessage({ id, texts: waiting.texts, claim });
    waiting = { keys: [], texts: [], bytes: 0 };
  };

  const fail = () => {
    failed = true;
    void worker?.terminate();
    settle?.();
  };

  const start = () => {
    const file = options.workerFile ?? [...builtFiles('count-worker.cjs'), ...builtFiles('count-worker.js')].find((url) => existsSync(url));
    if (!file) return;
    try {
      worker = new Worker(file, { workerData: { encoding, secrets } });
    } catch {
      return;
    }
    // `counts` is null for a batch this thread claimed first (and counted itself); `hits`, the indexes of texts that might hold a secret.
    worker.on('message', ({ id, counts, hits }: { id: number; counts: number[] | null; hits: number[] }) => {
      const batch = sent.get(id);
      if (!batch) return;
      if (counts) {
        sent.delete(id);
        counts.forEach((n, i) => results.set(batch.keys[i], n));
        for (const i of hits) matched.add(batch.keys[i]);
      }
      if (sent.size === 0) settle?.();
    });
    worker.on('error', fail);
    worker.on('exit', () => {
      if (sent.size > 0) fail();
    });
  };

  return {
    get usedWorker() {
      return worker !== undefined;
    },
    matched,
    stop() {
      if (worker) void worker.terminate();
    },
    add(key: string, text: string) {
      waiting.keys.push(key);
      waiting.texts.push(text);
      waiting.bytes += text.length;
      queuedBytes += text.length;
      if (!started && queuedBytes >= options.minBytes) {
        started = true;
        start();
      }
      if (worker && !failed && waiting.bytes >= batchBytes) send();
    },
    async counts() {
      if (worker && !failed) {
        send();
        // This thread counts the batches the worker has not started, from the last, while the worker goes on from the first.
        for (const [id, batch] of [...sent].reverse()) {
          if (Atomics.compareExchange(batch.claim, 0, 0, 2) !== 0) continue;
          countHere(batch);
          sent.delete(id);
        }
        if (sent.size > 0 && !failed) await new Promise<void>((resolve) => (settle = resolve));
        await worker.terminate();
      }
      // Whatever the worker did not answer (never started, failed, or queued before it ran) is counted here.
      for (const batch of [...sent.values(), waiting]) countHere(batch);
      sent.clear();
      waiting = { keys: [], texts: [], bytes: 0 };
      return results;
    },
  };
}
