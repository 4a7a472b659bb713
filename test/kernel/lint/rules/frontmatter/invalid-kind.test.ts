import { describe, expect, it } from 'vitest';
import { VALID, doc, lint, lines, mem } from '../../../../helpers/lint.js';

describe('frontmatter rules', () => {
  it('invalid-kind: unknown kind and status', async () => {
    const files = [mem('a.md', doc({ ...VALID, kind: 'decison', status: 'done' })), mem('b.md', doc({ ...VALID, kind: 'issue', status: 'open' }))];
    expect(lines(await lint(['frontmatter/invalid-kind'], { files }))).toEqual([
      'a.md:6:1 frontmatter/invalid-kind unknown kind "decison"; expected one of decision, issue, state, learning, session, note',
      'a.md:7:1 frontmatter/invalid-kind unknown status "done"; expected one of open, resolved, superseded (read as resolved; write `resolved`)',
    ]);
  });
});
