import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, removeDir, tempDir } from '../../helpers/cli.js';
import { runMemctx } from '../../helpers/run.js';
import { rankOrder } from '../../../src/kernel/rank/rank.js';
import type { FileScore } from '../../../src/kernel/rank/score.js';

const NOW = new Date('2026-11-20T12:00:00Z');
const WORDS = ['token', 'cache', 'rotation', 'safari', 'cookie', 'deploy', 'staging', 'schema', 'migration', 'queue', 'retry', 'webhook', 'billing', 'invoice', 'login', 'session', 'redis', 'postgres', 'index', 'latency'];

/** 60 notes from a fixed sequence: shared words, links, importance, ages, a superseded decision, dialogue turns. */
function generatedMemory(dir: string): string {
  const root = join(dir, 'gen', '.memory');
  mkdirSync(root, { recursive: true });
  let seed = 33;
  const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
  for (let i = 0; i < 60; i++) {
    const words = Array.from({ length: 30 + next(60) }, () => WORDS[next(WORDS.length)]);
    const turns = i % 4 === 0 ? words.map((w, k) => `${k % 2 ? 'Bo' : 'Al'}: we talked about ${w} today.`).join('\n') : words.join(' ');
    const link = i % 7 === 3 ? `\nSee [note ${i - 1}](n${i - 1}.md).\n` : '';
    const days = next(40);
    const front = [`name: Note ${i} ${WORDS[i % WORDS.length]}`, `description: about ${WORDS[(i * 3) % WORDS.length]} and ${WORDS[(i * 7) % WORDS.length]}`, `type: project`, `importance: ${1 + next(10)}`, `updated: ${new Date(NOW.getTime() - days * 86_400_000 - next(24) * 3_600_000).toISOString()}`];
    if (i % 10 === 5) front.push('kind: decision');
    if (i === 11) front.push('kind: decision', 'status: superseded');
    writeFileSync(join(root, `n${i}.md`), `---\n${front.join('\n')}\n---\n\n${turns}\n${link}`);
  }
  return root;
}

async function searchOrder(root: string, query: string): Promise<string[]> {
  const result = await runMemctx(['--dir', root, '--json', 'search', query, '--limit', '100'], { cwd: root, now: NOW });
  expect(result.code, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as { path: string }[]).map((h) => h.path);
}

async function packOrder(root: string, query: string): Promise<string[]> {
  const result = await runMemctx(['--dir', root, 'pack', '--task', query, '--json', '--budget', '2000'], { cwd: root, now: NOW });
  expect(result.code, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as { files: { path: string; task: number }[] }).files.filter((f) => f.task > 0).map((f) => f.path);
}

describe('search and pack --task share one ranker', () => {
  let dir: string;
  let seed: string;
  let generated: string;
  beforeAll(() => {
    dir = tempDir();
    seed = copyFixture('seed-memory', dir);
    generated = generatedMemory(dir);
  });
  afterAll(() => removeDir(dir));

  it.each(['safari cookie', 'refresh token rotation', 'auth', 'why did we pick postgres for the queue', 'deploy staging'])('seed-memory: search "%s" lists files in pack --task order', async (query) => {
    const order = await searchOrder(seed, query);
    expect(order.length).toBeGreaterThan(0);
    expect(order).toEqual(await packOrder(seed, query));
  });

  it.each(['token cache rotation', 'safari cookie login', 'billing invoice webhook retry', 'what did Al say about redis latency', 'schema migration'])('generated memory: search "%s" lists files in pack --task order', async (query) => {
    const order = await searchOrder(generated, query);
    expect(order.length).toBeGreaterThan(3);
    expect(order).toEqual(await packOrder(generated, query));
  });
});

describe('rankOrder', () => {
  const score = (path: string, task: number, points: number, extra: Partial<FileScore> = {}): FileScore => ({ path, relevance: points, recency: 0, dependency: 0, score: points, task, reasons: [], ...extra });
  const scores = [score('a.md', 0, 30), score('b.md', 0.8, 0), score('c.md', 0.5, 10, { demoted: 'status: resolved' }), score('d.md', 0.8, 0), score('e.md', 0.02, 50)];

  it('orders every file by task relevance, then current before demoted, then score, then path', () => {
    expect(rankOrder(scores)).toEqual([1, 3, 2, 4, 0]);
  });

  it('orders only the files it is given, as every file\'s order places them, in the array given', () => {
    const among = [4, 3, 0];
    expect(rankOrder(scores, among)).toBe(among);
    expect(among).toEqual([3, 4, 0]);
  });
});
