// What git says about the commits since memories were verified (kernel/sources/history.ts).
import { openSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { historyLater, historySince, type LogCache } from '../../../src/kernel/sources/history.js';
import { tempDir } from '../../helpers/cli.js';
import { makeRepo } from '../../helpers/repo.js';

/** A repository whose one commit after `base` adds src/a.ts ("add a"). */
async function repoWithA() {
  const repo = await makeRepo();
  const base = repo.gitOk(['rev-parse', 'HEAD']).trim();
  repo.write('src/a.ts', 'export const a = 1;\n');
  repo.gitOk(['add', '-A']);
  repo.gitOk(['commit', '-q', '-m', 'add a']);
  return { repo, base };
}

/** A log cache kept in a Map the test can read and change; with `listsKept`, it also lists its logs (the way on top of a kept HEAD). */
function keptLogs(listsKept = false): { kept: Map<string, string>; cache: LogCache } {
  const kept = new Map<string, string>();
  const cache: LogCache = { get: (range) => kept.get(range), set: (range, log) => void kept.set(range, log) };
  return { kept, cache: listsKept ? { ...cache, kept: () => kept } : cache };
}

describe('historySince', () => {
  it('asks git for the log once per range: a cached range is read from the cache, and a new HEAD is a new range', async () => {
    const { repo, base } = await repoWithA();
    const { kept, cache } = keptLogs();
    const first = historySince(repo.top, [base], repo.env, cache);
    expect(first.known && first.commits.map((c) => [c.subject, c.changes])).toEqual([['add a', [{ status: 'A', path: 'src/a.ts' }]]]);
    const head = repo.gitOk(['rev-parse', 'HEAD']).trim();
    expect([...kept.keys()]).toEqual([`${head} ^${base} -M`]);
    // the kept text is what the next run parses, without running git log
    kept.set(`${head} ^${base} -M`, `\x01${head} ${base}\x02from the cache\0M\0src/b.ts\0`);
    const second = historySince(repo.top, [base], repo.env, cache);
    expect(second.known && second.commits.map((c) => [c.subject, c.changes])).toEqual([['from the cache', [{ status: 'M', path: 'src/b.ts' }]]]);
    repo.write('src/a.ts', 'export const a = 2;\n');
    repo.gitOk(['commit', '-q', '-am', 'change a']);
    const third = historySince(repo.top, [base], repo.env, cache);
    expect(third.known && third.commits.map((c) => c.subject)).toEqual(['change a', 'add a']);
    expect(kept.size).toBe(2);
  });

  it('the one log detects renames, so a move is told from a deletion; what is kept is what the next run parses', async () => {
    const repo = await makeRepo();
    repo.write('src/a.ts', 'export function alpha() { return "a fairly long body so that git sees a rename"; }\n');
    repo.write('src/b.ts', 'export function beta() { return "another fairly long body, kept apart from a"; }\n');
    repo.write('src/c.ts', 'export const c = 1;\n');
    repo.gitOk(['add', '-A']);
    repo.gitOk(['commit', '-q', '-m', 'code']);
    const base = repo.gitOk(['rev-parse', 'HEAD']).trim();
    repo.write('src/x/.keep', '');
    repo.gitOk(['add', 'src/x/.keep']);
    repo.gitOk(['mv', 'src/a.ts', 'src/x/a.ts']);
    repo.gitOk(['commit', '-q', '-m', 'move a']);
    repo.gitOk(['mv', 'src/b.ts', 'src/x/b.ts']);
    repo.gitOk(['commit', '-q', '-m', 'move b']);
    repo.gitOk(['rm', '-q', 'src/c.ts']);
    repo.gitOk(['commit', '-q', '-m', 'drop c']);
    const changes = (h: ReturnType<typeof historySince>) => (h.known ? h.commits.map((c) => [c.subject, c.changes]) : h.reason);
    const { kept, cache } = keptLogs();
    const history = historySince(repo.top, [base], repo.env, cache);
    expect(changes(history)).toEqual([
      ['drop c', [{ status: 'D', path: 'src/c.ts' }]],
      ['move b', [{ status: 'R', from: 'src/b.ts', path: 'src/x/b.ts' }]],
      ['move a', [{ status: 'A', path: 'src/x/.keep' }, { status: 'R', from: 'src/a.ts', path: 'src/x/a.ts' }]],
    ]);
    // each changed path's commits (positions, newest first), old and new names of a move alike
    expect(history.known && Object.fromEntries(history.files!)).toEqual({ 'src/c.ts': [0], 'src/b.ts': [1], 'src/x/b.ts': [1], 'src/a.ts': [2], 'src/x/.keep': [2], 'src/x/a.ts': [2] });
    // one git log for the range, kept; none asked again for the moves
    const head = repo.gitOk(['rev-parse', 'HEAD']).trim();
    expect([...kept.keys()]).toEqual([`${head} ^${base} -M`]);
    kept.set(`${head} ^${base} -M`, kept.get(`${head} ^${base} -M`)!.replace('src/x/a.ts', 'src/x/kept.ts'));
    const again = historySince(repo.top, [base], repo.env, cache);
    expect(again.known && again.commits[2].changes).toEqual([{ status: 'A', path: 'src/x/.keep' }, { status: 'R', from: 'src/a.ts', path: 'src/x/kept.ts' }]);
    expect(again.known && Object.fromEntries(again.files!)).toEqual({ 'src/c.ts': [0], 'src/b.ts': [1], 'src/x/b.ts': [1], 'src/a.ts': [2], 'src/x/.keep': [2], 'src/x/kept.ts': [2] });
  });

  it('new commits in a line on top of a kept HEAD: only they are asked of git, the kept log follows; a merge on top asks for the whole range', async () => {
    const { repo, base } = await repoWithA();
    const { kept, cache } = keptLogs(true);
    const subjects = () => {
      const h = historySince(repo.top, [base], repo.env, cache);
      return h.known ? h.commits.map((c) => c.subject) : h.reason;
    };
    expect(subjects()).toEqual(['add a']);
    const first = repo.gitOk(['rev-parse', 'HEAD']).trim();
    // what is kept for the older HEAD is what the next range is built on
    kept.set(`${first} ^${base} -M`, kept.get(`${first} ^${base} -M`)!.replace('add a', 'add a, as kept'));
    repo.write('src/a.ts', 'export const a = 2;\n');
    repo.gitOk(['commit', '-q', '-am', 'change a']);
    repo.write('src/b.ts', 'export const b = 1;\n');
    repo.gitOk(['add', '-A']);
    repo.gitOk(['commit', '-q', '-m', 'add b']);
    expect(subjects()).toEqual(['add b', 'change a', 'add a, as kept']);
    const second = repo.gitOk(['rev-parse', 'HEAD']).trim();
    expect(kept.get(`${second} ^${base} -M`)).toContain('add a, as kept');
    // a merge on top of the kept HEAD: the whole range from git, in git's own order
    repo.gitOk(['checkout', '-q', '-b', 'side', first]);
    repo.write('src/c.ts', 'export const c = 1;\n');
    repo.gitOk(['add', '-A']);
    repo.gitOk(['commit', '-q', '-m', 'add c']);
    repo.gitOk(['checkout', '-q', '-']);
    repo.gitOk(['merge', '-q', '--no-ff', '-m', 'merge side', 'side']);
    const merged = subjects();
    expect(merged).toEqual(repo.gitOk(['log', '--format=%s', 'HEAD', `^${base}`]).trim().split('\n'));
    expect(merged).toContain('add a');
  });
});

describe('historyLater', () => {
  it("historySince's answer, its log from git in the background (written to the cache's scratch file) and kept; a kept log is read at once", async () => {
    const repo = await makeRepo();
    const base = repo.gitOk(['rev-parse', 'HEAD']).trim();
    repo.write('src/a.ts', 'export const a = 1;\n');
    repo.write('src/c.ts', 'export const c = 1;\n');
    repo.gitOk(['add', '-A']);
    repo.gitOk(['commit', '-q', '-m', 'add a and c']);
    repo.gitOk(['rm', '-q', 'src/c.ts']);
    repo.gitOk(['commit', '-q', '-m', 'drop c']);
    const { kept, cache } = keptLogs(true);
    const scratch = vi.fn(() => openSync(join(tempDir(), 'out'), 'wx+', 0o600));
    const later = await historyLater(repo.top, [base], repo.env, { ...cache, scratch }).finish();
    expect(scratch).toHaveBeenCalledTimes(1);
    const since = historySince(repo.top, [base], repo.env);
    expect(later).toEqual(since);
    // a commit's subject and files are read when asked for: the same either way
    const read = (h: typeof since) => (h.known ? h.commits.map((c) => [c.hash, c.parents, c.subject, c.changes]) : h.reason);
    expect(read(later)).toEqual(read(since));
    // (hash and parents too: read from the log when asked for, and not own properties that toEqual compares)
    const head = repo.gitOk(['rev-parse', 'HEAD']).trim();
    const middle = repo.gitOk(['rev-parse', 'HEAD~1']).trim();
    expect(read(later)).toEqual([[head, [middle], 'drop c', [{ status: 'D', path: 'src/c.ts' }]], [middle, [base], 'add a and c', [{ status: 'A', path: 'src/a.ts' }, { status: 'A', path: 'src/c.ts' }]]]);
    expect(kept.has(`${head} ^${base} -M`)).toBe(true);
    kept.set(`${head} ^${base} -M`, `\x01${head} ${base}\x02from the cache\0M\0src/b.ts\0`);
    const pending = historyLater(repo.top, [base], repo.env, cache);
    const again = await pending.finish();
    await pending.stop();
    expect(again.known && again.commits.map((c) => [c.subject, c.changes])).toEqual([['from the cache', [{ status: 'M', path: 'src/b.ts' }]]]);
  });

  it('stopped before it is finished: stop waits for git, and finish still resolves (never rejects)', async () => {
    const { repo, base } = await repoWithA();
    const pending = historyLater(repo.top, [base], repo.env);
    await pending.stop();
    const history = await pending.finish();
    expect(history.known && history.commits.map((c) => c.subject)).toEqual(['add a']);
  });

  it('outside git, or a shallow clone missing a verified commit: unknown, as historySince says', async () => {
    const outside = await historyLater(tempDir(), ['0123456789abcdef0123456789abcdef01234567'], { PATH: process.env.PATH }).finish();
    expect(outside.known ? 'known' : outside.reason).toMatch(/^not in a git repository/);
    const { repo, base } = await repoWithA();
    const clone = `${repo.base}/shallow`;
    repo.gitOk(['clone', '-q', '--depth', '1', `file://${repo.top}`, clone]);
    const shallow = await historyLater(clone, [base], repo.env).finish();
    expect(shallow).toEqual(historySince(clone, [base], repo.env));
    expect(shallow.known ? 'known' : shallow.reason).toMatch(/^this is a shallow clone/);
  });
});
