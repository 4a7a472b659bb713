// tokens/count-worker.ts as built (tokens/background.ts starts it; test/kernel/tokens/background.test.ts packs with it).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { loadTokenCounterSync } from '../../../src/kernel/tokens/count.js';
import { REPO } from '../../helpers/cli.js';

const FILE = pathToFileURL(join(REPO, 'dist/src/kernel/tokens/count-worker.js'));
const workers: Worker[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.terminate()));
});

type Answer = { id: number; counts: number[] | null; hits: number[] };

function start(workerData: object): (id: number, texts: string[], claim: Int32Array) => Promise<Answer> {
  const worker = new Worker(FILE, { workerData });
  workers.push(worker);
  return (id, texts, claim) =>
    new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.postMessage({ id, texts, claim });
    });
}

const claim = () => new Int32Array(new SharedArrayBuffer(4));
const TEXTS = ['# Auth\n\nThe token lives in a cookie.\n', 'Größe naïve café 🙂', ''];

describe('the counting worker', () => {
  it('counts a batch it claims, with its encoding, and marks the batch claimed', async () => {
    for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
      const ask = start({ encoding });
      const batch = claim();
      expect(await ask(7, TEXTS, batch)).toEqual({ id: 7, counts: TEXTS.map((t) => loadTokenCounterSync(encoding).count(t)), hits: [] });
      expect(batch[0]).toBe(1);
    }
  });

  it('leaves a batch another thread claimed first: no counts', async () => {
    const ask = start({ encoding: 'o200k_base', secrets: true });
    const taken = claim();
    taken[0] = 1;
    expect(await ask(1, TEXTS, taken)).toEqual({ id: 1, counts: null, hits: [] });
  });

  it('says which texts might hold a secret, when asked', async () => {
    const texts = [...TEXTS, 'café ghp_0123456789abcdef', 'API_TOKEN: x'];
    expect((await start({ encoding: 'o200k_base', secrets: true })(2, texts, claim())).hits).toEqual([3, 4]);
    expect((await start({ encoding: 'o200k_base' })(3, texts, claim())).hits).toEqual([]);
  });
});
