// rank/links.ts: the link graph between memory files that ranking spreads scores over.
import { describe, expect, it } from 'vitest';
import { linkGraph } from '../../../src/kernel/rank/links.js';
import type { PackFile } from '../../../src/kernel/rank/types.js';
import { mem } from '../../helpers/lint.js';

const graph = (files: Record<string, string>) => {
  const out = linkGraph(Object.entries(files).map(([path, text]) => mem(path, text) as PackFile));
  return Object.fromEntries([...out].map(([path, targets]) => [path, [...targets].sort()]));
};

describe('linkGraph', () => {
  it('related: entries, Markdown links to .md files and [[name]] links, by path', () => {
    expect(graph({
      'a.md': '---\nname: A\nrelated: [b.md]\n---\nSee [the c note](sub/c.md) and [[Deploy Steps]].\n',
      'b.md': '---\nname: B\n---\nBack to [[a]].\n',
      'sub/c.md': '---\nname: C\n---\nNothing.\n',
      'deploy.md': '---\nname: Deploy Steps\n---\nSteps.\n',
    })).toEqual({ 'a.md': ['b.md', 'deploy.md', 'sub/c.md'], 'b.md': ['a.md'], 'sub/c.md': [], 'deploy.md': [] });
  });

  it('a [[name]] matches the file name, the `name:` or its kebab-case form, in any case', () => {
    expect(graph({
      'x.md': '---\nname: X\n---\n[[DEPLOY]] [[release-notes]] [[Runbook: On Call!]]\n',
      'deploy.md': '---\nname: Shipping\n---\n',
      'notes.md': '---\nname: Release Notes\n---\n',
      'oncall.md': '---\nname: Runbook on-call\n---\n',
    })['x.md']).toEqual(['deploy.md', 'notes.md', 'oncall.md']);
  });

  it('drops links to missing files and to the file itself', () => {
    expect(graph({ 'a.md': '---\nname: A\nrelated: [gone.md, a.md]\n---\n[[A]] [[nobody]] [self](a.md) [away](https://example.com/b.md)\n' })).toEqual({ 'a.md': [] });
  });
});
