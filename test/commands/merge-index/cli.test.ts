// merge-index/cli.ts: what git's merge driver prints, and its exit code (non-zero: still conflicted).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
import { runCli } from '../../helpers/run.js';

const block = (...lines: string[]) => ['<!-- memctx:begin -->', '## Project', '', ...lines, '<!-- memctx:end -->'].join('\n');
const A = '- [A](a.md) — a';

function versions(base: string | Buffer, ours: string | Buffer, theirs: string | Buffer): string {
  const cwd = tempDir();
  writeFileSync(join(cwd, 'O'), base);
  writeFileSync(join(cwd, 'A'), ours);
  writeFileSync(join(cwd, 'B'), theirs);
  return cwd;
}

describe('memctx merge-index', () => {
  it('a clean merge: exit 0, silent', async () => {
    const cwd = versions(`# M\n\n${block(A)}\n`, `# M\n\n${block(A, '- [B](b.md) — b')}\n`, `# M\n\n${block(A, '- [C](c.md) — c')}\n`);
    expect(await runCli(['merge-index', 'O', 'A', 'B', 'MEMORY.md'], { cwd })).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('conflicts: exit 1 and a warning naming the file and the lines; --json gives the result', async () => {
    const texts = [`# M\n\n${block(A)}\n`, `# Ours\n\n${block(A)}\n`, `# Theirs\n\n${block(A)}\n`] as const;
    const cwd = versions(...texts);
    expect(await runCli(['merge-index', 'O', 'A', 'B', 'docs/MEMORY.md'], { cwd })).toEqual({
      code: 1,
      stdout: '',
      stderr: 'warning: docs/MEMORY.md merged, but with conflicts: resolve the git conflict markers on lines 1, 3, 5 by hand, then git add\n',
    });
    const again = versions(...texts);
    expect(await runCli(['--json', 'merge-index', 'O', 'A', 'B'], { cwd: again })).toEqual({ code: 1, stdout: '{\n  "file": "MEMORY.md",\n  "conflictMarkers": [\n    1,\n    3,\n    5\n  ]\n}\n', stderr: '' });
  });

  it('a version it refuses: exit 1 and a warning saying both sides are left whole', async () => {
    const cwd = versions(`# M\n`, `# M\n`, Buffer.from('# M\n\0\n'));
    const result = await runCli(['merge-index', 'O', 'A', 'B'], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^warning: MEMORY\.md: not merged: theirs's version holds .*; both versions are left whole between conflict markers \(lines 1, 3, 6\): keep what each side adds, remove the markers, then git add\n$/);
  });
});
