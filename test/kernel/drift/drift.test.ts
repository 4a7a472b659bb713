// lint/drift.ts: commits attributed to memories over a history with a merge (ancestry, not log order), folders, globs, renames.
import { describe, expect, it } from 'vitest';
import { attributeDrift } from '../../../src/kernel/drift/drift.js';

const commit = (hash: string, parents: string[], subject: string, changes: { status: string; path: string; from?: string }[]) => ({ hash: hash.padEnd(40, '0'), parents: parents.map((p) => p.padEnd(40, '0')), subject, changes });
// Newest first: c4 merges side branch b1 (off c1) into c3.
const HISTORY = {
  commits: [
    commit('c4', ['c3', 'b1'], 'merge side', []),
    commit('c3', ['c2'], 'touch a on main', [{ status: 'M', path: 'src/a.ts' }]),
    commit('b1', ['c1'], 'touch a on the side', [{ status: 'M', path: 'src/a.ts' }]),
    commit('c2', ['c1'], 'move b', [{ status: 'R', from: 'src/b.ts', path: 'lib/b.ts' }]),
    commit('c1', [], 'start', [{ status: 'A', path: 'src/a.ts' }, { status: 'A', path: 'src/b.ts' }]),
  ],
  missing: new Set<string>(),
};
const anchors = (paths: string[], globs: string[] = []) => ({ paths, globs, outside: [], declared: true });
const exists = (path: string) => path !== 'src/b.ts';

describe('attributeDrift', () => {
  it('counts only commits the verified commit does not contain, through a merge', () => {
    const out = attributeDrift([
      { path: 'side.md', anchors: anchors(['src/a.ts']), verified: 'b1'.padEnd(40, '0') },
      { path: 'main.md', anchors: anchors(['src/a.ts']), verified: 'c3'.padEnd(40, '0') },
      { path: 'fresh.md', anchors: anchors(['src/a.ts']), verified: 'c4'.padEnd(40, '0') },
    ], HISTORY, exists);
    expect(out.get('side.md')).toMatchObject({ state: 'drifted', commits: 1, latest: { subject: 'touch a on main' } });
    expect(out.get('main.md')).toMatchObject({ state: 'drifted', commits: 1, latest: { subject: 'touch a on the side' } });
    expect(out.has('fresh.md')).toBe(false);
  });

  it('follows a rename, takes folders and globs, and says when every anchor is gone', () => {
    const verified = 'c1'.padEnd(40, '0');
    const out = attributeDrift([
      { path: 'b.md', anchors: anchors(['src/b.ts']), verified },
      { path: 'folder.md', anchors: anchors(['src']), verified },
      { path: 'glob.md', anchors: anchors([], ['lib/**/*.ts']), verified },
    ], HISTORY, exists);
    expect(out.get('b.md')).toMatchObject({ state: 'drifted', commits: 1, gone: [{ path: 'src/b.ts', movedTo: 'lib/b.ts' }], allGone: true });
    expect(out.get('folder.md')).toMatchObject({ state: 'drifted', commits: 3, allGone: false });
    expect(out.get('glob.md')).toMatchObject({ state: 'drifted', commits: 1, paths: ['lib/**/*.ts'] });
  });

  it("with the log reader's index of files, the commits' own files are not read (unless an anchor is gone), and the answer is the same", () => {
    const files = new Map([['src/a.ts', [1, 2, 4]], ['lib/b.ts', [3]], ['src/b.ts', [3, 4]]]);
    const unread = HISTORY.commits.map((c) => ({ ...c, get changes(): never { throw new Error(`read the files of ${c.subject}`); } }));
    const memories = [
      { path: 'main.md', anchors: anchors(['src/a.ts']), verified: 'c3'.padEnd(40, '0') },
      { path: 'folder.md', anchors: anchors(['src', 'lib']), verified: 'c1'.padEnd(40, '0') },
      { path: 'glob.md', anchors: anchors([], ['lib/**/*.ts']), verified: 'c1'.padEnd(40, '0') },
    ];
    expect(attributeDrift(memories, { commits: unread, missing: new Set(), files }, () => true)).toEqual(attributeDrift(memories, HISTORY, () => true));
  });

  it('verified at the range\'s base (no commit of the range contains it): every commit counts, once, the newest latest', () => {
    const base = 'c0'.padEnd(40, '0');
    const out = attributeDrift([
      { path: 'one.md', anchors: anchors(['src/a.ts']), verified: base },
      { path: 'two.md', anchors: anchors(['src/a.ts', 'src']), verified: base },
    ], HISTORY, exists);
    expect(out.get('one.md')).toMatchObject({ state: 'drifted', paths: ['src/a.ts'], commits: 3, latest: { hash: 'c3'.padEnd(40, '0'), subject: 'touch a on main' } });
    expect(out.get('two.md')).toMatchObject({ state: 'drifted', paths: ['src/a.ts', 'src'], commits: 4, latest: { subject: 'touch a on main' } });
  });

  it('a verified commit git does not have is unknown, never fresh', () => {
    const gone = 'ff'.repeat(20);
    const out = attributeDrift([{ path: 'x.md', anchors: anchors(['src/a.ts']), verified: gone }], { ...HISTORY, missing: new Set([gone]) }, exists);
    expect(out.get('x.md')).toEqual({ state: 'unknown', reason: `its verified commit ${gone.slice(0, 12)} is not in this repository (rebased away?)` });
  });

  it('a glob matching 100,000 changed files: one line, matched in bounded time (within the 5 s limit of this test)', () => {
    const changes = Array.from({ length: 100_000 }, (_, i) => ({ status: 'A', path: `gen/d${i % 100}/f${i}.ts` }));
    const history = { commits: [commit('g2', ['g1'], 'generate', changes), commit('g1', [], 'start', [])], missing: new Set<string>() };
    const verified = 'g1'.padEnd(40, '0');
    const memories = Array.from({ length: 20 }, (_, i) => ({ path: `m${i}.md`, anchors: anchors([], [i === 0 ? 'gen/**' : `gen/d${i}/*.ts`]), verified }));
    const out = attributeDrift(memories, history, () => true);
    expect(out.size).toBe(20);
    expect(out.get('m0.md')).toMatchObject({ state: 'drifted', commits: 1, paths: ['gen/**'], latest: { subject: 'generate' } });
  }, 5_000);

  it('2,000 memories verified at 2,000 different commits of a 40,000-commit history, with merges: each counts its own, in bounded time (within the 5 s limit of this test)', () => {
    // Newest first: a line of 40,000 commits, commit i touching src/f<i mod 500>.ts; every 1,000th merges in a side commit (off the one below it).
    const hash = (i: number) => `c${i}x`.padEnd(40, '0');
    const side = (i: number) => `s${i}x`.padEnd(40, '0');
    const last = 40_000;
    const commits: { hash: string; parents: string[]; subject: string; changes: { status: string; path: string }[] }[] = [];
    for (let i = last; i >= 1; i--) {
      const merge = i % 1000 === 0;
      commits.push({ hash: hash(i), parents: i === 1 ? [] : merge ? [hash(i - 1), side(i)] : [hash(i - 1)], subject: `change ${i}`, changes: [{ status: 'M', path: `src/f${i % 500}.ts` }] });
      if (merge) commits.push({ hash: side(i), parents: [hash(i - 1)], subject: `side ${i}`, changes: [{ status: 'M', path: 'src/side.ts' }] });
    }
    const memories = Array.from({ length: 2000 }, (_, k) => ({ path: `m${k}.md`, anchors: anchors([`src/f${k % 500}.ts`, 'src/side.ts']), verified: hash(k * 20 + 1) }));
    const out = attributeDrift(memories, { commits, missing: new Set() }, () => true);
    // verified at commit n: the later commits of its file on the line, and the side commits merged after n
    const expected = (n: number, file: number) => Math.floor((last - file) / 500) - Math.floor((n - file) / 500) + Math.floor(last / 1000) - Math.floor(n / 1000);
    expect(memories.map((m) => (out.get(m.path) as { commits: number }).commits)).toEqual(memories.map((_, k) => expected(k * 20 + 1, k % 500)));
    expect(out.get('m0.md')).toMatchObject({ paths: ['src/f0.ts', 'src/side.ts'], latest: { subject: 'change 40000' } });
  }, 5_000);
});
