import { describe, expect, it } from 'vitest';
import { fencedLines, joinPath, markdownLinks, memoryLinks } from '../../../src/kernel/markdown/links.js';

describe('the one Markdown link reader', () => {
  it('finds inline, reference and [[name]] links with line and column, outside fences and code spans', () => {
    const text = ['See [auth](project_auth.md#top) and [[db-notes|the db]].', '`[not](code.md)` but [yes](a%20b.md "title")', '```', '[fenced](x.md)', '```', '[ref]: <notes/ref.md>'].join('\n');
    expect(markdownLinks(text, 10)).toEqual([
      { kind: 'inline', raw: 'project_auth.md#top', target: 'project_auth.md', line: 10, column: 5 },
      { kind: 'wiki', raw: 'db-notes', target: 'db-notes', line: 10, column: 37 },
      { kind: 'inline', raw: 'a%20b.md', target: 'a b.md', line: 11, column: 22 },
      { kind: 'reference', raw: 'notes/ref.md', target: 'notes/ref.md', line: 15, column: 1 },
    ]);
  });

  it('resolves memory links against the file’s own folder and drops those that leave the directory', () => {
    const body = '[up](../top.md) [side](peer.md) [out](../../gone.md) [web](https://x.io/a.md) [txt](notes.txt) [[Name]]\n';
    expect(memoryLinks('tasks/t1/notes.md', body, 3)).toEqual([
      { kind: 'markdown', target: 'tasks/top.md', line: 3 },
      { kind: 'markdown', target: 'tasks/t1/peer.md', line: 3 },
      { kind: 'markdown', target: 'gone.md', line: 3 },
      { kind: 'wiki', target: 'Name', line: 3 },
    ]);
    expect(memoryLinks('top.md', '[out](../x.md)', 1)).toEqual([]);
  });

  it('tracks fences: same character closes, fence lines count as inside, an unclosed fence runs to the end', () => {
    expect(fencedLines(['a', '```js', '~~~', 'b', '```', 'c', '~~~~', 'd'])).toEqual([false, true, true, true, true, false, true, true]);
  });

  it('joins paths and refuses to climb above the root', () => {
    expect(joinPath('a/b', '../c.md')).toBe('a/c.md');
    expect(joinPath('', './x/./y.md')).toBe('x/y.md');
    expect(joinPath('a', '../../c.md')).toBeUndefined();
  });
});
