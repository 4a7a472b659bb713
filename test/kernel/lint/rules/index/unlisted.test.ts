import { describe, expect, it } from 'vitest';
import { renderIndexFile } from '../../../../../src/kernel/memindex/merge.js';
import { VALID, doc, lint, lines, mem } from '../../../../helpers/lint.js';

describe('index rules', () => {
  const files = [mem('project_auth.md', doc(VALID)), mem('user_prefs.md', doc({ ...VALID, name: 'Prefs', type: 'user' }))];

  it('unlisted: files missing from MEMORY.md; sessions are exempt', async () => {
    const withSession = [...files, mem('sessions/2026-11-20T100000-x.md', doc({ ...VALID, kind: 'session' }))];
    const indexText = renderIndexFile(undefined, files.slice(0, 1));
    const result = await lint(['index/unlisted'], { files: withSession, indexText });
    expect(lines(result)).toEqual(['user_prefs.md:1:1 index/unlisted not listed in MEMORY.md; run `memctx index` (or `memctx lint --fix`)']);
    expect(result.findings[0].fix).toEqual({ type: 'rebuild-index' });
  });

  it('unlisted: a file the index leaves out for size says so and has no fix', async () => {
    const many = Array.from({ length: 300 }, (_, i) => mem(`p${String(i).padStart(3, '0')}.md`, doc({ ...VALID, name: `P${i}`, importance: i === 299 ? 1 : 5 })));
    const indexText = renderIndexFile(undefined, many);
    const result = await lint(['index/unlisted'], { files: many, indexText });
    expect(result.findings.length).toBeGreaterThan(90);
    expect(result.findings.every((f) => f.fix === undefined && f.message.startsWith('not listed in MEMORY.md: the index is at its size limit'))).toBe(true);
    expect(result.findings.map((f) => f.file)).toContain('p299.md');
  });
});
