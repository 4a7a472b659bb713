import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { backgroundCounter } from '../../../src/kernel/tokens/background.js';
import { loadTokenCounterSync } from '../../../src/kernel/tokens/count.js';
import { pack } from '../../../src/kernel/bundle/bundle.js';
import { stateOf } from '../../helpers/cli.js';

const TEXTS = [
  '# Auth\n\nThe login flow keeps its session token in a cookie.\n',
  'Größe naïve café — 日本語のテキスト 🙂👍🏽 e\u0301',
  'x'.repeat(5000),
  '',
  "It's what they've said; we'll see. <|endoftext|>\r\n\r\n",
];

describe('counting on a worker thread', () => {
  for (const minBytes of [0, Number.POSITIVE_INFINITY]) {
    it(`gives the counts of this thread's counter (minBytes ${minBytes})`, async () => {
      const background = backgroundCounter('o200k_base', { minBytes, batchBytes: 64 });
      TEXTS.forEach((text, i) => background.add(`k${i}`, text));
      const counts = await background.counts();
      const here = loadTokenCounterSync('o200k_base');
      expect([...counts.entries()].sort()).toEqual(TEXTS.map((text, i) => [`k${i}`, here.count(text)]).sort());
      expect(background.usedWorker).toBe(minBytes === 0);
    });
  }

  it('gives every count when this thread counts the batches the worker has not taken', async () => {
    const texts = Array.from({ length: 300 }, (_, i) => `${TEXTS[i % TEXTS.length]} ${i}\n`.repeat(1 + (i % 4)));
    const background = backgroundCounter('o200k_base', { minBytes: 0, batchBytes: 32 });
    texts.forEach((text, i) => background.add(`k${i}`, text));
    const counts = await background.counts();
    const here = loadTokenCounterSync('o200k_base');
    expect(counts.size).toBe(texts.length);
    texts.forEach((text, i) => expect(counts.get(`k${i}`)).toBe(here.count(text)));
    expect(background.usedWorker).toBe(true);
  });

  // Texts that might hold a secret (maybeSecret): a key prefix in any case, after non-ASCII text, and an assignment.
  const SUSPECTS = ['The key AKIAIOSFODNN7EXAMPLE is old.\n', 'Größe 🙂 then sK-ant-api03-x', 'DB_PASSWORD = hunter2\n'];

  for (const minBytes of [0, Number.POSITIVE_INFINITY]) {
    it(`says which texts might hold a secret, as this thread would (minBytes ${minBytes})`, async () => {
      const background = backgroundCounter('o200k_base', { minBytes, batchBytes: 64, secrets: true });
      [...TEXTS, ...SUSPECTS].forEach((text, i) => background.add(`k${i}`, text));
      await background.counts();
      expect([...background.matched].sort()).toEqual(['k5', 'k6', 'k7']);
      expect(background.usedWorker).toBe(minBytes === 0);
    });
  }

  it('tests nothing for secrets unless asked', async () => {
    const background = backgroundCounter('o200k_base', { minBytes: 0 });
    [...TEXTS, ...SUSPECTS].forEach((text, i) => background.add(`k${i}`, text));
    await background.counts();
    expect(background.matched.size).toBe(0);
  });

  it('counts with the encoding it was given', async () => {
    const background = backgroundCounter('cl100k_base', { minBytes: 0 });
    background.add('a', TEXTS[1]);
    expect((await background.counts()).get('a')).toBe(loadTokenCounterSync('cl100k_base').count(TEXTS[1]));
  });

  it('answers nothing for nothing queued, without starting a worker', async () => {
    const background = backgroundCounter('o200k_base', { minBytes: 0 });
    expect((await background.counts()).size).toBe(0);
    expect(background.usedWorker).toBe(false);
  });
});

describe('pack with counts from a worker thread', () => {
  const work = mkdtempSync(join(tmpdir(), 'memctx-bg-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('packs the same bundle, counts and report as counting on this thread', async () => {
    const results = [];
    // Dates in the files, so that which files are the most recent does not hang on write times.
    for (const backgroundCountBytes of [0, Number.POSITIVE_INFINITY]) {
      const root = join(work, `m${results.length}`, '.memory');
      mkdirSync(root, { recursive: true });
      for (let i = 0; i < 30; i++) {
        writeFileSync(join(root, `note_${i}.md`), `---\nname: Note ${i}\ndescription: About auth token ${i % 3 ? 'rotation' : 'migration'} — part ${i}\ntype: project\nupdated: 2026-11-0${1 + (i % 9)}\n---\n\n${'The auth token migration moves sessions to signed cookies. '.repeat(1 + (i % 7))}\n`);
      }
      const options = { root, budget: 1500, task: 'auth token migration', format: 'markdown' as const, encoding: 'o200k_base' as const };
      const result = await pack(options, { now: () => new Date('2026-11-20T10:00:00Z'), env: {}, backgroundCountBytes });
      results.push({ text: result.text, files: result.files, misses: result.tokenizer.cacheMisses });
    }
    expect(results[0]).toEqual(results[1]);
    expect(results[0].misses).toBeGreaterThanOrEqual(30);
  });

  it('masks the same secrets when the worker runs the secret prefilter as when this thread does', async () => {
    const results = [];
    // Dates in the files, so that which files are the most recent does not hang on write times.
    for (const backgroundCountBytes of [0, Number.POSITIVE_INFINITY]) {
      const root = join(work, `s${results.length}`, '.memory');
      mkdirSync(root, { recursive: true });
      for (let i = 0; i < 12; i++) writeFileSync(join(root, `note_${i}.md`), `---\nname: Note ${i}\ndescription: note ${i}\ntype: project\nupdated: 2026-11-${10 + i}\n---\n\n${i === 4 ? 'export DB_PASSWORD=hunter2xyz99\n' : ''}${'Plain words about the release. '.repeat(1 + i)}\n`);
      const options = { root, budget: 100_000, format: 'markdown' as const, encoding: 'o200k_base' as const, redactSecrets: true };
      const result = await pack(options, { now: () => new Date('2026-11-20T10:00:00Z'), env: {}, backgroundCountBytes });
      results.push({ text: result.text, warnings: result.warnings, usedWorker: result.tokenizer.loaded });
    }
    expect(results[0].text).toBe(results[1].text);
    expect(results[0].warnings).toEqual(['possible secrets masked in note_4.md']);
    expect(results[1].warnings).toEqual(results[0].warnings);
    expect(results[0].text).not.toContain('hunter2xyz99');
  });

  it('reports the same cache hits as a warm run when only the pack cache was lost', async () => {
    const root = join(work, 'lost', '.memory');
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, 'MEMORY.md'), '# Memory\n');
    for (let i = 0; i < 5; i++) writeFileSync(join(root, `n${i}.md`), `---\nname: N${i}\ndescription: note ${i}\ntype: project\n---\n\nbody ${i}\n`);
    const options = { root, budget: 1500, format: 'markdown' as const, encoding: 'o200k_base' as const };
    // A clock past the racy window, so the files' stats are cached.
    const deps = { now: () => new Date(Date.now() + 60_000), env: {} };
    const first = await pack(options, deps);
    rmSync(join(stateOf(root), 'pack-cache.bin'));
    const second = await pack(options, deps);
    const warm = await pack(options, deps);
    expect(first.tokenizer.cacheMisses).toBeGreaterThan(5);
    expect(second.tokenizer.cacheMisses).toBe(0);
    expect(second.tokenizer.cacheHits).toBe(warm.tokenizer.cacheHits);
    expect(second.text).toBe(first.text);
  });
});

describe('when the worker fails', () => {
  const dir = mkdtempSync(join(tmpdir(), 'memctx-bg-fail-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const script = (name: string, body: string) => {
    const file = join(dir, name);
    writeFileSync(file, body);
    return pathToFileURL(file);
  };

  it.each([
    ['exits at once', "process.exit(3);\n"],
    ['throws', "throw new Error('broken');\n"],
    ['answers one batch, then exits', "import { parentPort } from 'node:worker_threads';\nlet n = 0;\nparentPort.on('message', ({ id, texts }) => { if (n++ > 0) process.exit(1); parentPort.postMessage({ id, counts: texts.map(() => 999) }); });\n"],
    ['is missing', null],
  ])('counts every text on this thread when the worker %s', async (name, body) => {
    const workerFile = body === null ? pathToFileURL(join(dir, 'missing.mjs')) : script(`${name.replace(/\W+/g, '-')}.mjs`, body);
    const background = backgroundCounter('o200k_base', { minBytes: 0, batchBytes: 1, workerFile });
    TEXTS.forEach((text, i) => background.add(`k${i}`, text));
    const counts = await background.counts();
    const here = loadTokenCounterSync('o200k_base');
    // A batch the failing worker did answer keeps its answer; every other text is counted here.
    for (const [i, text] of TEXTS.entries()) expect([here.count(text), 999]).toContain(counts.get(`k${i}`));
    expect([...counts.values()].filter((n) => n === 999).length).toBeLessThanOrEqual(body?.includes('999') ? 1 : 0);
  });
});
