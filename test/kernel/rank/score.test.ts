import { describe, expect, it } from 'vitest';
import { recencyScore, scoreFiles } from '../../../src/kernel/rank/score.js';
import { queryTerms } from '../../../src/kernel/text/analyse.js';
import { NOW, hoursAgo, memory } from '../../helpers/pack-files.js';

const old = '2020-01-01';
const scoreOf = (files: ReturnType<typeof memory>[], path: string, options: Partial<Parameters<typeof scoreFiles>[1]> = {}) =>
  scoreFiles(files, { now: NOW, ...options }).find((s) => s.path === path)!;

describe('recency', () => {
  it.each([
    [0.5, 30], [1, 30], [1.01, 20], [4, 20], [4.5, 10], [24, 10], [25, 5], [7 * 24, 5], [7 * 24 + 1, 0], [1000, 0],
  ])('updated %s hours ago scores %s', (hours, points) => {
    expect(recencyScore(memory('a.md', { name: 'a', updated: hoursAgo(hours) }), NOW)).toBe(points);
  });

  it('falls back to the mtime when updated is missing or not a date', () => {
    const mtime = NOW.getTime() - 2 * 3_600_000;
    expect(recencyScore(memory('a.md', { name: 'a' }, 'x', mtime), NOW)).toBe(20);
    expect(recencyScore(memory('a.md', { name: 'a', updated: 'yesterday' }, 'x', mtime), NOW)).toBe(20);
  });
});

describe('relevance', () => {
  // Six old files so that "among the 5 most recent" is decided by the dates below.
  const filler = ['f1', 'f2', 'f3', 'f4', 'f5', 'f6'].map((n, i) => memory(`${n}.md`, { name: n, updated: `2025-01-0${i + 1}` }));

  it('gives 20 to a decision, importance >= 8 or pinned, 10 to unresolved work, 5 to references', () => {
    const files = [
      ...filler,
      memory('dec.md', { name: 'd', kind: 'decision', updated: old }),
      memory('imp.md', { name: 'i', importance: 8, updated: old }),
      memory('imp7.md', { name: 'i7', importance: 7, updated: old }),
      memory('pin.md', { name: 'p', pinned: true, updated: old }),
      memory('iss.md', { name: 's', kind: 'issue', status: 'open', updated: old }),
      memory('iss2.md', { name: 's2', kind: 'issue', updated: old }),
      memory('done.md', { name: 'r', kind: 'issue', status: 'resolved', updated: old }),
      memory('todo.md', { name: 't', updated: old }, 'Ship it. TODO: write the docs.\n'),
      memory('blk.md', { name: 'b', updated: old }, 'BLOCKER waiting on the DBA.\n'),
      memory('todolower.md', { name: 'tl', updated: old }, 'todos are fine here\n'),
      memory('ref.md', { name: 'x', type: 'reference', updated: old }),
    ];
    const rel = (p: string) => scoreOf(files, p).relevance;
    expect([rel('dec.md'), rel('imp.md'), rel('imp7.md'), rel('pin.md')]).toEqual([20, 20, 0, 20]);
    expect([rel('iss.md'), rel('iss2.md'), rel('done.md'), rel('todo.md'), rel('blk.md'), rel('todolower.md')]).toEqual([10, 10, 0, 10, 10, 0]);
    expect(rel('ref.md')).toBe(5);
  });

  it('gives 15 to the five most recently updated files', () => {
    const files = [...filler, memory('new.md', { name: 'n', updated: '2026-06-01' })];
    expect(scoreOf(files, 'new.md').relevance).toBe(15);
    expect(scoreOf(files, 'f6.md').relevance).toBe(15);
    expect(scoreOf(files, 'f3.md').relevance).toBe(15);
    expect(scoreOf(files, 'f2.md').relevance).toBe(0);
  });

  it('scales the task share by the BM25F match, 25 when the task names the file by path', () => {
    const files = [
      ...filler,
      memory('auth.md', { name: 'Auth', description: 'jwt tokens', updated: old }, 'We rotate refresh tokens.\n'),
      memory('db.md', { name: 'Database', updated: old }, 'Postgres schema.\n'),
      memory('date.md', { name: 'Dates', updated: old }, 'ISO dates.\n'),
    ];
    const task = 'rotate the jwt refresh keys';
    expect(queryTerms(task)).toEqual(['rotat', 'jwt', 'refresh', 'kei']);
    expect(scoreOf(files, 'auth.md', { task })).toMatchObject({ relevance: 25, task: 1 });
    expect(scoreOf(files, 'db.md', { task }).relevance).toBe(0);
    expect(scoreOf(files, 'db.md', { task: 'look at db.md first' })).toMatchObject({ relevance: 25, task: 1 });
    expect(scoreOf([...files, memory('notes/deploy.md', { name: 'Deploy', updated: old }, 'Steps.\n')], 'notes/deploy.md', { task: 'check notes/deploy first' })).toMatchObject({ relevance: 25, task: 1 });
    expect(scoreOf(files, 'date.md', { task: 'update the login flow' }).task).toBe(0);
    expect(scoreOf(files, 'db.md', { task: 'the database migration' }).task).toBe(1);
  });

  it('caps relevance at 50', () => {
    const files = [...filler.slice(0, 4), memory('all.md', { name: 'All', kind: 'decision', type: 'reference', updated: '2026-06-14' }, 'TODO auth\n')];
    const s = scoreOf(files, 'all.md', { task: 'auth' });
    expect(s.relevance).toBe(50); // 25 + 15 + 10 + 20 + 5 = 75
    expect(s.reasons).toEqual(['task', 'recent', 'unresolved', 'core', 'reference', 'active']);
  });
});

describe('dependency', () => {
  const files = [
    memory('task.md', { name: 'Task', updated: old }, 'Payment webhook retries. See [db](db.md) and [[Queue]].\n'),
    memory('db.md', { name: 'DB', related: ['schema.md'], updated: old }),
    memory('queue.md', { name: 'Queue', updated: old }),
    memory('schema.md', { name: 'Schema', updated: old }),
    memory('caller.md', { name: 'Caller', updated: old }, 'Uses [the task](task.md).\n'),
    memory('alone.md', { name: 'Alone', updated: old }),
  ];

  it('scores 20 for files an active file links to, 10 for second degree, 15 for files linking to it', () => {
    const dep = (p: string) => scoreOf(files, p, { task: 'payment webhook retries' }).dependency;
    expect(dep('db.md')).toBe(20);
    expect(dep('queue.md')).toBe(20); // [[Queue]] resolves by name
    expect(dep('schema.md')).toBe(10);
    expect(dep('caller.md')).toBe(15);
    expect(dep('alone.md')).toBe(0);
    expect(dep('task.md')).toBe(0);
  });

  it('treats --focus files as active, and scores nothing without a task or focus', () => {
    expect(scoreOf(files, 'schema.md', { focus: ['db.md'] }).dependency).toBe(20);
    expect(scoreOf(files, 'task.md', { focus: ['db.md'] }).dependency).toBe(15);
    expect(scoreFiles(files, { now: NOW }).map((s) => s.dependency)).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('sums the three sub-scores', () => {
    const s = scoreOf([...files, memory('hot.md', { name: 'Hot', kind: 'decision', updated: hoursAgo(0.5) }, '[t](task.md)\n')], 'hot.md', { task: 'payment webhook retries' });
    // Linked to the file the task matches: its task score is raised (0.4 → 10 points of relevance).
    expect([s.relevance, s.recency, s.dependency, s.score]).toEqual([45, 30, 15, 90]);
  });
});
