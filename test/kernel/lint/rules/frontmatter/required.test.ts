import { describe, expect, it } from 'vitest';
import { VALID, doc, lint, lines, mem } from '../../../../helpers/lint.js';

describe('frontmatter rules', () => {
  it('required: name, description and type (metadata.type counts), no frontmatter, name length', async () => {
    const files = [
      mem('ok.md', doc(VALID)),
      mem('claude.md', '---\nname: auth-notes\ndescription: d\nmetadata:\n  type: project\n---\nx\n'),
      mem('none.md', 'just text\n'),
      mem('partial.md', doc({ name: 'n' })),
      mem('long.md', doc({ ...VALID, name: 'x'.repeat(101) })),
    ];
    expect(lines(await lint(['frontmatter/required'], { files }))).toEqual([
      'long.md:2:1 frontmatter/required "name" is 101 characters; at most 100',
      'none.md:1:1 frontmatter/required no frontmatter: add a `---` block with name, description and type',
      'partial.md:1:1 frontmatter/required missing required field "description" (one line, shown in MEMORY.md)',
      'partial.md:1:1 frontmatter/required missing required field "type" (user | feedback | project | reference)',
    ]);
  });
});
