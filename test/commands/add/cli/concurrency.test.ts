import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, stateOf } from '../../../helpers/cli.js';
import { runCli } from '../../../helpers/run.js';
import { memctxAsync, read } from '../../../helpers/cli-util.js';

function addArgs(i: number): string[] {
  return ['add', `parallel_${i}`, '--name', `Parallel ${i}`, '--description', `written by process ${i}`, '--type', 'project', '--body', `body ${i}`];
}

async function addAtOnce(count: number) {
  const cwd = tempDir();
  expect((await runCli(['init'], { cwd })).code).toBe(0);
  const results = await Promise.all(Array.from({ length: count }, (_, i) => memctxAsync(addArgs(i + 1), { cwd })));
  return { cwd, root: join(cwd, '.memory'), results };
}

// Only the adds run as separate processes; setting up and checking run in-process.
describe('memctx add from several processes at once', () => {
  it.each([2, 10])('%i processes: every file is written and the index lists them all', async (count) => {
    const { cwd, root, results } = await addAtOnce(count);
    for (const [i, result] of results.entries()) {
      expect(result).toEqual({ code: 0, stdout: `created parallel_${i + 1}.md\n`, stderr: '' });
      expect(existsSync(join(root, `parallel_${i + 1}.md`))).toBe(true);
      expect(read(join(root, `parallel_${i + 1}.md`))).toContain(`\nbody ${i + 1}\n`);
    }
    const index = read(join(root, 'MEMORY.md'));
    for (let i = 1; i <= count; i++) expect(index).toContain(`- [Parallel ${i}](parallel_${i}.md) — written by process ${i}`);
    expect(await runCli(['index', '--check'], { cwd })).toEqual({ code: 0, stdout: `MEMORY.md is up to date (${count} files)\n`, stderr: '' });
    // No temporary files or lock left behind (caches in the state folder are fine).
    expect(readdirSync(root).filter((f) => !/^(parallel_\d+\.md|MEMORY\.md|templates|\.gitignore)$/.test(f))).toEqual([]);
    expect(readdirSync(stateOf(root)).filter((f) => /lock|\.\d+$/.test(f))).toEqual([]);
  });

  it('two processes adding the same path: one wins, the other is refused, nothing is overwritten', async () => {
    const cwd = tempDir();
    await runCli(['init'], { cwd });
    const [a, b] = await Promise.all([
      memctxAsync(['add', 'same', '--name', 'A', '--description', 'from a', '--type', 'user', '--body', 'a'], { cwd }),
      memctxAsync(['add', 'same', '--name', 'B', '--description', 'from b', '--type', 'user', '--body', 'b'], { cwd }),
    ]);
    expect([a.code, b.code].sort()).toEqual([0, 2]);
    const loser = a.code === 2 ? a : b;
    const winner = a.code === 0 ? 'a' : 'b';
    expect(loser.stderr).toContain('same.md already exists; add never overwrites');
    expect(read(join(cwd, '.memory', 'same.md'))).toContain(`\n${winner}\n`);
  });
});
