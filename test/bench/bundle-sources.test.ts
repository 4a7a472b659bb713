import { describe, expect, it } from 'vitest';
import { bundleSources } from '../../bench/bundle-sources.js';

describe('bundleSources', () => {
  it('splits a bundle into the files text, frontmatter, framing, index and the rest', () => {
    const bundle = [
      '# Memory bundle', '', '## Index', '', '### Sessions', '', '- [Chat](sessions/a.md) — hi', '',
      '## Files in full', '', '### sessions/a.md', '', 'project · session · score 24', '', '```markdown', '---', 'name: Chat', '---', '', '**Ann:** I adopted a cat.', '```', '',
      '## Passages of larger files', '', '### sessions/b.md, lines 9-11', '', '````markdown', '**Bo:** Lovely!', '---', '````', '',
      '## Left out', '', 'Left out to stay within 2000 tokens: 1 file summary.', '',
    ].join('\n');
    expect(bundleSources(bundle)).toEqual({
      text: ['', '**Ann:** I adopted a cat.', '**Bo:** Lovely!', '---'].join('\n'),
      frontmatter: ['---', 'name: Chat', '---'].join('\n'),
      framing: ['# Memory bundle', '## Index', '## Files in full', '', '### sessions/a.md', '', 'project · session · score 24', '', '```markdown', '```', '', '## Passages of larger files', '', '### sessions/b.md, lines 9-11', '', '````markdown', '````', '', '## Left out'].join('\n'),
      index: ['', '### Sessions', '', '- [Chat](sessions/a.md) — hi', ''].join('\n'),
      other: ['', '', 'Left out to stay within 2000 tokens: 1 file summary.', ''].join('\n'),
    });
  });
});
