import { describe, expect, it } from 'vitest';
import { renderIndexFile } from '../../../../../src/kernel/memindex/merge.js';
import { VALID, doc, lint, lines, mem } from '../../../../helpers/lint.js';

describe('index rules', () => {
  const files = [mem('project_auth.md', doc(VALID)), mem('user_prefs.md', doc({ ...VALID, name: 'Prefs', type: 'user' }))];
  const fresh = renderIndexFile(undefined, files);

  it('dangling-link: links to missing files, inside and outside the memory directory', async () => {
    const indexText = `${fresh}\nSee [gone](gone.md), [docs](../docs/guide.md), [old](../docs/old.md), [site](https://example.com/x.md) and [sessions](sessions/).\n`;
    const memoryPaths = ['project_auth.md', 'user_prefs.md', 'sessions/s1.md'];
    const result = await lint(['index/dangling-link'], { files, indexText, memoryPaths, repoFiles: ['docs/guide.md', '.memory/project_auth.md'], memoryPrefix: '.memory' });
    const last = indexText.split('\n').length - 1;
    expect(lines(result)).toEqual([
      `MEMORY.md:${last}:5 index/dangling-link link to gone.md, which does not exist; run \`memctx index\` to rebuild the index, or fix the hand-written link`,
      `MEMORY.md:${last}:48 index/dangling-link link to ../docs/old.md, which does not exist; run \`memctx index\` to rebuild the index, or fix the hand-written link`,
    ]);
  });
});
