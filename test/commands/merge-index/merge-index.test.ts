// merge-index/merge-index.ts: git's three temporary versions in, the merged text into OURS
// (test/kernel/hooks/merge-driver.test.ts runs it as git's driver in real merges).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergeIndex } from '../../../src/commands/merge-index/merge-index.js';
import { tempDir } from '../../helpers/cli.js';

const block = (...lines: string[]) => ['<!-- memctx:begin -->', '## Project', '', ...lines, '<!-- memctx:end -->'].join('\n');
const A = '- [A](a.md) — a';

/** Git's %O %A %B as files in a folder, relative to it. */
function versions(base: string | Buffer, ours: string | Buffer, theirs: string | Buffer): string {
  const cwd = tempDir();
  writeFileSync(join(cwd, 'O'), base);
  writeFileSync(join(cwd, 'A'), ours);
  writeFileSync(join(cwd, 'B'), theirs);
  return cwd;
}

describe('mergeIndex', () => {
  it('writes the merge into OURS: both sides\' hand text and entries, no conflict', async () => {
    const cwd = versions(`# M\n\n${block(A)}\n`, `# M\nours\n\n${block(A, '- [B](b.md) — b')}\n`, `# M\n\n${block(A, '- [C](c.md) — c')}\ntheirs\n`);
    expect(await mergeIndex({ cwd, base: 'O', ours: 'A', theirs: 'B', path: 'docs/.memory/MEMORY.md' })).toEqual({ file: 'docs/.memory/MEMORY.md', conflictMarkers: [] });
    expect(readFileSync(join(cwd, 'A'), 'utf8')).toBe(`# M\nours\n\n${block(A, '- [B](b.md) — b', '- [C](c.md) — c')}\ntheirs\n`);
  });

  it('both sides changing one hand-written line: the lines of the markers', async () => {
    const cwd = versions(`# M\n\n${block(A)}\n`, `# Ours\n\n${block(A)}\n`, `# Theirs\n\n${block(A)}\n`);
    const result = await mergeIndex({ cwd, base: 'O', ours: 'A', theirs: 'B' });
    expect(result.file).toBe('MEMORY.md');
    const merged = readFileSync(join(cwd, 'A'), 'utf8').split('\n');
    expect(result.conflictMarkers.map((line) => merged[line - 1].slice(0, 7))).toEqual(['<<<<<<<', '=======', '>>>>>>>']);
  });

  it("a version it cannot merge (a NUL byte) is named, and both sides are left whole between markers", async () => {
    const ours = `# M\n\n${block(A)}\n`;
    const cwd = versions(`# M\n\n${block(A)}\n`, ours, Buffer.from('# M\n\0\n'));
    expect(await mergeIndex({ cwd, base: 'O', ours: 'A', theirs: 'B' })).toEqual({ file: 'MEMORY.md', conflictMarkers: [1, 9, 12], refused: expect.stringMatching(/^theirs's version holds /) });
    expect(readFileSync(join(cwd, 'A'), 'utf8')).toBe(`<<<<<<< ours\n${ours}=======\n# M\n\0\n>>>>>>> theirs\n`);
  });

  it('a version that cannot be read is an error naming it', async () => {
    const cwd = versions('', '', '');
    await expect(mergeIndex({ cwd, base: 'gone', ours: 'A', theirs: 'B' })).rejects.toMatchObject({ message: 'no such MEMORY.md version', file: 'MEMORY.md (base)', exitCode: 2 });
  });
});
