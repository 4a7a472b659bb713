// What git says about the commits since memories were verified (kernel/sources/history.ts).
import { describe, expect, it } from 'vitest';
import { historySince } from '../../../src/kernel/sources/history.js';
import { makeRepo } from '../../helpers/repo.js';

describe('historySince', () => {
  it('asks git for the log once per range: a cached range is read from the cache, and a new HEAD is a new range', async () => {
    const repo = await makeRepo();
    const base = repo.gitOk(['rev-parse', 'HEAD']).trim();
    repo.write('src/a.ts', 'export const a = 1;\n');
    repo.gitOk(['add', '-A']);
    repo.gitOk(['commit', '-q', '-m', 'add a']);
    const kept = new Map<string, string>();
    const cache = { get: (range: string) => kept.get(range), set: (range: string, log: string) => void kept.set(range, log) };
    const first = historySince(repo.top, [base], repo.env, cache);
    expect(first.known && first.commits.map((c) => [c.subject, c.changes])).toEqual([['add a', [{ status: 'A', path: 'src/a.ts' }]]]);
    const head = repo.gitOk(['rev-parse', 'HEAD']).trim();
    expect([...kept.keys()]).toEqual([`${head} ^${base}`]);
    // the kept text is what the next run parses, without running git log
    kept.set(`${head} ^${base}`, `\x01${head} ${base}\x02from the cache\0M\0src/b.ts\0`);
    const second = historySince(repo.top, [base], repo.env, cache);
    expect(second.known && second.commits.map((c) => [c.subject, c.changes])).toEqual([['from the cache', [{ status: 'M', path: 'src/b.ts' }]]]);
    repo.write('src/a.ts', 'export const a = 2;\n');
    repo.gitOk(['commit', '-q', '-am', 'change a']);
    const third = historySince(repo.top, [base], repo.env, cache);
    expect(third.known && third.commits.map((c) => c.subject)).toEqual(['change a', 'add a']);
    expect(kept.size).toBe(2);
  });
});
