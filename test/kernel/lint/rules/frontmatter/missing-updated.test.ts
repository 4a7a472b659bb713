import { describe, expect, it } from 'vitest';
import { VALID, doc, lint, mem } from '../../../../helpers/lint.js';

describe('frontmatter rules', () => {
  it('missing-updated offers a fix with the file time, in the key the file uses', async () => {
    const { updated: _u, ...noDate } = VALID;
    const mtime = Date.parse('2026-10-01T08:00:00Z');
    const files = [mem('a.md', doc(noDate), mtime), mem('b.md', doc({ ...noDate, modified: '' }), mtime), mem('c.md', doc(VALID)), mem('d.md', 'no frontmatter\n')];
    const result = await lint(['frontmatter/missing-updated'], { files });
    expect(result.findings.map((f) => [f.file, f.fix])).toEqual([
      ['a.md', { type: 'set-date', key: 'updated', value: '2026-10-01T08:00:00Z' }],
      ['b.md', { type: 'set-date', key: 'modified', value: '2026-10-01T08:00:00Z' }],
    ]);
    expect(result.fixableWarningCount).toBe(2);
  });
});
