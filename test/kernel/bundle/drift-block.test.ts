// bundle/drift-block.ts: the SessionStart bundle's block of drifted memories, in each format, and its place
// after the bundle's header (test/commands/pack/cli/drift.test.ts runs it through pack on a real repository).
import { describe, expect, it } from 'vitest';
import { driftBlock, withDriftBlock } from '../../../src/kernel/bundle/drift-block.js';
import type { Drift } from '../../../src/kernel/drift/drift.js';

const drifted = (path: string): Drift => ({ state: 'drifted', verified: 'a'.repeat(40), paths: [path], commits: 2, latest: { hash: 'b'.repeat(40), subject: 'move it' }, gone: [], allGone: false });
const WHAT = (path: string) => `${path} changed in 2 commits since it was verified (aaaaaaa), latest bbbbbbb "move it"`;
const seven = new Map<string, Drift>(['g', 'c', 'a', 'e', 'b', 'f', 'd'].map((n) => [`${n}.md`, drifted(`src/${n}.ts`)]));

describe('driftBlock', () => {
  it('is empty when nothing drifted', () => {
    expect(driftBlock('markdown', new Map())).toBe('');
    expect(driftBlock('json', new Map())).toBe('');
  });

  it('markdown: the first five in path order, then how many more and the command that lists them', () => {
    expect(driftBlock('markdown', seven)).toBe(
      '\n## Drifted memories\n\nThe code these memories name changed since they were verified. Check each against the code before acting on it, then `memctx verify PATH`.\n\n' +
        ['a', 'b', 'c', 'd', 'e'].map((n) => `- \`${n}.md\` — ${WHAT(`src/${n}.ts`)}\n`).join('') +
        '- … and 2 more: `memctx lint` lists them (rule content/drifted)\n',
    );
  });

  it('names the memctx command the bundle was made with, and says why a drift is unknown', () => {
    const drift = new Map<string, Drift>([['x.md', { state: 'unknown', reason: 'no git history' }]]);
    const text = driftBlock('markdown', drift, 'memctx --dir notes');
    expect(text).toContain('then `memctx --dir notes verify PATH`.');
    expect(text).toContain('- `x.md` — drift unknown: no git history\n');
    expect(text).not.toContain('more:');
  });

  it('json: a member to append to the header object, with the files, the count left out and the commands', () => {
    const text = driftBlock('json', seven, 'memctx', 2);
    expect(text.startsWith(',"drifted":')).toBe(true);
    expect(JSON.parse(`{${text.slice(1)}}`)).toEqual({
      drifted: { files: [{ path: 'a.md', what: WHAT('src/a.ts') }, { path: 'b.md', what: WHAT('src/b.ts') }], more: 5, check: 'Check each against the code before acting on it, then `memctx verify PATH`.', listAll: 'memctx lint' },
    });
  });

  it('xml: one element per memory, the text escaped', () => {
    const drift = new Map<string, Drift>([['a&b.md', { state: 'unknown', reason: 'commit <x> "gone"' }]]);
    expect(driftBlock('xml', drift)).toBe(
      '<drifted more="0" check="Check each against the code before acting on it, then `memctx verify PATH`." list-all="memctx lint">\n<memory path="a&amp;b.md">drift unknown: commit &lt;x> &quot;gone&quot;</memory>\n</drifted>\n',
    );
  });
});

describe('withDriftBlock', () => {
  const count = (text: string) => text.length;

  it('puts the block after the header, names the budget asked for, and counts the whole bundle', () => {
    const result = { tokens: 0, budget: 1500, text: 'old' };
    const parts = withDriftBlock(result, ['{"budget":1500,"files":[', ']}'], ',"x":1', 2000, count);
    expect(parts).toEqual(['{"budget":2000,"files":[', ',"x":1', ']}']);
    expect(result.text).toBe('{"budget":2000,"files":[,"x":1]}');
    expect(result.budget).toBe(2000);
    expect(result.tokens).toBe(result.text.length);
    const xml = withDriftBlock({ tokens: 0, budget: 10, text: '' }, ['<bundle budget="10">\n', '</bundle>\n'], '<drifted/>\n', 40, count);
    expect(xml[0]).toBe('<bundle budget="40">\n');
  });

  it('leaves the bundle as it is when there is no block or no bundle', () => {
    const result = { tokens: 7, budget: 1500, text: 'kept' };
    const parts = ['# Memory bundle\n'];
    expect(withDriftBlock(result, parts, '', 2000, count)).toBe(parts);
    expect(withDriftBlock(result, [], 'block', 2000, count)).toEqual([]);
    expect(result).toEqual({ tokens: 7, budget: 1500, text: 'kept' });
  });
});
