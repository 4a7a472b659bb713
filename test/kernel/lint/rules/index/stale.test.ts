import { describe, expect, it } from 'vitest';
import { renderIndexFile } from '../../../../../src/kernel/memindex/merge.js';
import { VALID, doc, lint, lines, mem } from '../../../../helpers/lint.js';

describe('index rules', () => {
  const files = [mem('project_auth.md', doc(VALID)), mem('user_prefs.md', doc({ ...VALID, name: 'Prefs', type: 'user' }))];
  const fresh = renderIndexFile(undefined, files);

  it('stale: silent when MEMORY.md is what `memctx index` writes; fixable otherwise', async () => {
    expect(lines(await lint(['index/stale'], { files, indexText: fresh }))).toEqual([]);
    const old = renderIndexFile(undefined, files.slice(0, 1));
    const result = await lint(['index/stale'], { files, indexText: old });
    expect(lines(result)).toEqual(['MEMORY.md:3:1 index/stale MEMORY.md is out of date (2 lines missing); run `memctx index` (or `memctx lint --fix`)']);
    expect(result.findings[0].fix).toEqual({ type: 'rebuild-index' });
    expect(lines(await lint(['index/stale'], { files }))).toEqual(['MEMORY.md:1:1 index/stale MEMORY.md does not exist; run `memctx index` (or `memctx lint --fix`)']);
  });

  it('stale: broken markers are reported at their line and not fixable', async () => {
    const result = await lint(['index/stale'], { files, indexText: '# Memory\n<!-- memctx:end -->\n<!-- memctx:begin -->\n' });
    expect(result.findings).toHaveLength(1);
    expect(result.findings[0].line).toBe(2);
    expect(result.findings[0].fix).toBeUndefined();
    expect(result.findings[0].message).toContain('comes before');
  });
});
