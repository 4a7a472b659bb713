// drift/check.ts: drift of a set of memories from a real repository's history, for lint and for pack.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { earlyDriftLog, memoryDrift, memoryDriftLater, packDriftDetails } from '../../../src/kernel/drift/check.js';
import { startLogEarly } from '../../../src/kernel/sources/history.js';
import { listRepoFiles } from '../../../src/kernel/sources/repo.js';
import { makeRepo, type TestRepo } from '../../helpers/repo.js';
import { mem } from '../../helpers/lint.js';
import { tempDir } from '../../helpers/cli.js';

/** A repository with src/a.ts, memories verified at that commit, then a commit that changes src/a.ts. */
async function driftedRepo(): Promise<{ repo: TestRepo; verified: string; texts: Record<string, string> }> {
  const repo = await makeRepo();
  repo.write('src/a.ts', 'export const a = 1;\n');
  repo.gitOk(['add', '-A']);
  repo.gitOk(['commit', '-q', '-m', 'add a']);
  const verified = repo.gitOk(['rev-parse', 'HEAD']).trim();
  const texts = {
    'a.md': `---\nname: A\nverified: ${verified}\n---\nThe constant lives in \`src/a.ts\`.\n`,
    'held.md': `---\nname: Held\nverified: ${verified}\npaths: README.md\n---\nAbout the readme.\n`,
    'unverified.md': '---\nname: U\n---\nAlso about `src/a.ts`.\n',
    'sessions/s.md': `---\nname: S\nkind: session\nverified: ${verified}\n---\nEdited \`src/a.ts\`.\n`,
    'away.md': `---\nname: Away\nverified: ${verified}\npaths: [/etc/hosts]\n---\n`,
  };
  for (const [path, text] of Object.entries(texts)) repo.write(`.memory/${path}`, text);
  repo.write('src/a.ts', 'export const a = 2;\n');
  repo.gitOk(['add', '-A']);
  repo.gitOk(['commit', '-q', '-m', 'change a']);
  return { repo, verified, texts };
}

describe('memoryDrift', () => {
  it('a verified memory whose code changed since; not one that holds, an unverified one or a session record; paths outside the repository apart', async () => {
    const { repo, verified, texts } = await driftedRepo();
    const files = Object.entries(texts).map(([path, text]) => mem(path, text));
    const { drift, outside } = memoryDrift(files, listRepoFiles({ root: repo.top, git: true }, repo.env), '.memory', repo.env);
    expect([...drift.keys()]).toEqual(['a.md']);
    expect(drift.get('a.md')).toMatchObject({ state: 'drifted', verified, paths: ['src/a.ts'], commits: 1, latest: { subject: 'change a' }, gone: [], allGone: false });
    expect([...outside]).toEqual([['away.md', ['/etc/hosts']]]);
  });

  it('outside git nothing is said', () => {
    const dir = tempDir();
    const files = [mem('a.md', '---\nname: A\nverified: 0123456789abcdef0123456789abcdef01234567\npaths: src/a.ts\n---\n')];
    expect(memoryDrift(files, { root: dir, files: ['src/a.ts'], ignoredDirs: [], git: false }, '.memory', {}).drift.size).toBe(0);
  });
});

describe('memoryDriftLater', () => {
  it("memoryDrift's drift and outside anchors, the log from a worker; paths with spaces, a leading dash or glob characters, a glob", async () => {
    const { repo, verified, texts } = await driftedRepo();
    const odd = ['src/my file.ts', '-dash.ts', 'src/[x].ts', 'src/keep me.ts'];
    for (const path of odd) repo.write(path, 'export const v = 1;\n');
    repo.gitOk(['add', '-A']);
    repo.gitOk(['commit', '-q', '-m', 'odd names']);
    const at = repo.gitOk(['rev-parse', 'HEAD']).trim();
    for (const path of odd.slice(0, 3)) repo.write(path, 'export const v = 2;\n');
    repo.gitOk(['commit', '-q', '-am', 'change odd names']);
    const all: Record<string, string> = {
      ...texts,
      'odd.md': `---\nname: Odd\nverified: ${at}\npaths: ["src/my file.ts", "-dash.ts", "src/[x].ts"]\n---\n`,
      'glob.md': `---\nname: Glob\nverified: ${at}\npaths: "src/*.ts"\n---\n`,
      'kept.md': `---\nname: Kept\nverified: ${at}\npaths: "src/keep me.ts"\n---\n`,
    };
    const files = Object.entries(all).map(([path, text]) => mem(path, text));
    const listing = listRepoFiles({ root: repo.top, git: true }, repo.env);
    const later = memoryDriftLater(files, listing, '.memory', repo.env);
    const drift = await later.drift;
    await later.stop();
    expect(drift).toEqual(memoryDrift(files, listing, '.memory', repo.env).drift);
    expect([...drift.keys()].sort()).toEqual(['a.md', 'glob.md', 'odd.md']);
    expect(drift.get('odd.md')).toMatchObject({ state: 'drifted', verified: at, paths: ['src/my file.ts', '-dash.ts', 'src/[x].ts'], commits: 1, latest: { subject: 'change odd names' } });
    expect(drift.get('glob.md')).toMatchObject({ state: 'drifted', paths: ['src/*.ts'], commits: 1 });
    expect(drift.get('a.md')).toMatchObject({ state: 'drifted', verified, paths: ['src/a.ts'], commits: 1 });
    expect([...later.outside]).toEqual([['away.md', ['/etc/hosts']]]);
  });

  it('keeps its answer with the log: the same range and anchors read it (not the log); another anchor, a path gone or a corrupt answer ask again', async () => {
    const { repo, texts } = await driftedRepo();
    const files = Object.entries(texts).map(([path, text]) => mem(path, text));
    const listing = listRepoFiles({ root: repo.top, git: true }, repo.env);
    const kept = new Map<string, string>();
    const cache = { get: (key: string) => kept.get(key), set: (key: string, text: string) => void kept.set(key, text) };
    const run = async (given = files, at = listing) => {
      const later = memoryDriftLater(given, at, '.memory', repo.env, undefined, cache);
      await later.stop();
      return later.drift;
    };
    const first = await run();
    const [range, answer] = [...kept.keys()];
    expect([range.split(' ')[1].startsWith('^'), answer]).toEqual([true, expect.stringMatching(/^drift [0-9a-f]{40}$/)]);
    // the kept log is not read again while the answer holds
    kept.set(range, '');
    expect(await run()).toEqual(first);
    expect(first.get('a.md')).toMatchObject({ state: 'drifted', commits: 1 });
    // src/a.ts gone from the work tree: a new answer, from the (now empty) kept log
    expect((await run(files, { ...listing, files: listing.files.filter((f) => f !== 'src/a.ts') })).size).toBe(0);
    kept.set(answer, '[["a.md",{"state":"drifted"}]]');
    expect((await run()).size).toBe(0);
    kept.set(answer, JSON.stringify([...first]));
    expect(await run()).toEqual(first);
    // held.md now anchored to src/a.ts as well: its own answer
    const more = files.map((f) => (f.path === 'held.md' ? mem(f.path, texts['held.md'].replace('paths: README.md', 'paths: [README.md, src/a.ts]')) : f));
    expect((await run(more)).size).toBe(0);
  });

  it('outside git, or nothing anchored and verified: no drift, no git', async () => {
    const dir = tempDir();
    const files = [mem('a.md', '---\nname: A\nverified: 0123456789abcdef0123456789abcdef01234567\npaths: src/a.ts\n---\n')];
    const later = memoryDriftLater(files, { root: dir, files: ['src/a.ts'], ignoredDirs: [], git: false }, '.memory', {});
    expect((await later.drift).size).toBe(0);
    await later.stop();
  });
});

describe('earlyDriftLog', () => {
  it("starts the log of the range the verified lines give; memoryDriftLater uses it when the range is the same, and a wrong guess's log never", async () => {
    const { repo, verified, texts } = await driftedRepo();
    const files = Object.entries(texts).map(([path, text]) => mem(path, text));
    const listing = listRepoFiles({ root: repo.top, git: true }, repo.env);
    const right = memoryDrift(files, listing, '.memory', repo.env).drift;
    const head = repo.gitOk(['rev-parse', 'HEAD']).trim();
    const early = earlyDriftLog(join(repo.top, '.memory'), repo.env);
    expect([early?.head, early?.base]).toEqual([head, verified]);
    const later = memoryDriftLater(files, listing, '.memory', repo.env, undefined, undefined, early);
    expect(await later.drift).toEqual(right);
    await later.stop();
    // a guess of HEAD: its range (HEAD ^HEAD) has no commits; the exact range asks git again
    const wrong = startLogEarly(repo.top, [head], repo.env);
    expect(wrong?.base).toBe(head);
    const again = memoryDriftLater(files, listing, '.memory', repo.env, undefined, undefined, wrong);
    expect((await again.drift).get('a.md')).toMatchObject({ state: 'drifted', verified, commits: 1, latest: { subject: 'change a' } });
    await again.stop();
  });

  it('its range serves memoryDriftLater when the memories are verified at the guessed commits (no second rev-parse); other commits ask git for theirs', async () => {
    const { repo, verified, texts } = await driftedRepo();
    const files = Object.entries(texts).map(([path, text]) => mem(path, text));
    const listing = listRepoFiles({ root: repo.top, git: true }, repo.env);
    const right = memoryDrift(files, listing, '.memory', repo.env).drift;
    const trace = join(repo.base, 'trace.txt');
    const traced = { ...repo.env, GIT_TRACE: trace };
    const rangeAsks = () => (existsSync(trace) ? readFileSync(trace, 'utf8') : '').split('\n').filter((line) => line.includes('rev-parse --show-toplevel --is-shallow-repository')).length;
    const early = earlyDriftLog(join(repo.top, '.memory'), repo.env);
    expect(early?.guessed).toEqual(new Set([verified]));
    const later = memoryDriftLater(files, listing, '.memory', traced, undefined, undefined, early);
    expect(await later.drift).toEqual(right);
    await later.stop();
    expect(rangeAsks()).toBe(0);
    // a guess of other commits (HEAD as well): the exact range is asked of git, and the answer is the same
    const head = repo.gitOk(['rev-parse', 'HEAD']).trim();
    const other = startLogEarly(repo.top, [verified, head], repo.env);
    const again = memoryDriftLater(files, listing, '.memory', traced, undefined, undefined, other);
    expect(await again.drift).toEqual(right);
    await again.stop();
    expect(rangeAsks()).toBe(1);
  });

  it('nothing started when a log is kept for the base, outside git, or with nothing verified', async () => {
    const { repo, verified } = await driftedRepo();
    const head = repo.gitOk(['rev-parse', 'HEAD']).trim();
    const kept = new Map([[`${head} ^${verified} -M`, '']]);
    const cache = { get: (key: string) => kept.get(key), set: () => undefined, kept: () => kept };
    expect(earlyDriftLog(join(repo.top, '.memory'), repo.env, cache)).toBeUndefined();
    expect(earlyDriftLog(join(repo.top, 'src'), repo.env)).toBeUndefined();
    expect(earlyDriftLog(tempDir(), {})).toBeUndefined();
  });
});

describe('packDriftDetails', () => {
  it('one line per drifted memory among the paths asked for, saying what changed and how to check', async () => {
    const { repo, texts } = await driftedRepo();
    const root = join(repo.top, '.memory');
    const { lines, drift } = packDriftDetails(root, ['a.md', 'held.md', 'unverified.md'], (path) => texts[path as keyof typeof texts], repo.env);
    expect([...drift.keys()]).toEqual(['a.md']);
    expect([...lines.keys()]).toEqual(['a.md']);
    expect(lines.get('a.md')).toMatch(/^drifted: src\/a\.ts changed in 1 commit since it was verified \([0-9a-f]{7}\), latest [0-9a-f]{7} "change a"; check the code before acting on it, then `memctx verify a\.md`$/);
    expect(packDriftDetails(root, ['held.md'], (path) => texts[path as keyof typeof texts], repo.env).lines.size).toBe(0);
  });

  it('asks git for its grep alone when none of the paths is verified, and for nothing outside git', async () => {
    const { repo, texts } = await driftedRepo();
    const trace = join(repo.base, 'pack-trace.txt');
    const asked = () => (existsSync(trace) ? readFileSync(trace, 'utf8') : '').split('\n').filter((line) => line.includes('trace: built-in: git ')).map((line) => line.replace(/^.*trace: built-in: git (\S+).*$/, '$1'));
    const { drift } = packDriftDetails(join(repo.top, '.memory'), ['unverified.md'], (path) => texts[path as keyof typeof texts], { ...repo.env, GIT_TRACE: trace });
    expect(drift.size).toBe(0);
    expect(asked()).toEqual(['grep']);
    const outside = tempDir();
    expect(packDriftDetails(outside, ['unverified.md'], () => '', { PATH: process.env.PATH, GIT_TRACE: join(outside, 'trace.txt') }).drift.size).toBe(0);
    expect(existsSync(join(outside, 'trace.txt'))).toBe(false);
  });
});
