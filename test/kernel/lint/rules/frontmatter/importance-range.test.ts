import { describe, expect, it } from 'vitest';
import { VALID, doc, lint, lines, mem } from '../../../../helpers/lint.js';

describe('frontmatter rules', () => {
  it('importance-range: whole numbers 1-10', async () => {
    const files = ['0', '11', '2.5', 'high', '"7"', '10', '1'].map((v, i) => mem(`f${i}.md`, doc({ ...VALID, importance: v })));
    expect(lines(await lint(['frontmatter/importance-range'], { files }))).toEqual([
      'f0.md:6:1 frontmatter/importance-range "importance" must be a whole number from 1 to 10 (got 0)',
      'f1.md:6:1 frontmatter/importance-range "importance" must be a whole number from 1 to 10 (got 11)',
      'f2.md:6:1 frontmatter/importance-range "importance" must be a whole number from 1 to 10 (got 2.5)',
      'f3.md:6:1 frontmatter/importance-range "importance" must be a whole number from 1 to 10 (got "high")',
    ]);
  });
});
