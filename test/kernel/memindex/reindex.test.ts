// memindex/reindex.ts: MEMORY.md planned and rebuilt; a write refused up front when MEMORY.md's markers are broken.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../helpers/cli.js';
import { runCli } from '../../helpers/run.js';
import { planIndex, writeAndReindex } from '../../../src/kernel/memindex/reindex.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

/** A memory directory whose MEMORY.md has a begin marker and no end marker, and one expired file. */
function brokenIndexDir(): string {
  const cwd = tempDir();
  dirs.push(cwd);
  const root = join(cwd, '.memory');
  mkdirSync(root);
  writeFileSync(join(root, 'MEMORY.md'), '# Memory\n\n<!-- memctx:begin -->\n- stale\n');
  writeFileSync(join(root, 'old.md'), '---\nname: Old\ndescription: expired note\ntype: project\nexpires: 2020-01-01\nupdated: 2020-01-01\n---\nbody\n');
  return cwd;
}

describe('commands that write, when MEMORY.md has broken markers', () => {
  it('gc --apply refuses before moving anything (exit 2, naming the line)', async () => {
    const cwd = brokenIndexDir();
    const result = await runCli(['gc', '--apply'], { cwd });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('MEMORY.md:3');
    expect(existsSync(join(cwd, '.memory', 'old.md'))).toBe(true);
    expect(existsSync(join(cwd, '.memory', 'archive'))).toBe(false);
  });

  it('rm refuses before deleting', async () => {
    const cwd = brokenIndexDir();
    expect((await runCli(['rm', 'old.md'], { cwd })).code).toBe(2);
    expect(existsSync(join(cwd, '.memory', 'old.md'))).toBe(true);
  });

  it('flush still writes the session (it would be lost otherwise) and says the index was not rebuilt', async () => {
    const cwd = brokenIndexDir();
    const result = await runCli(['flush', '--goal', 'Ship the fix', '--progress', 'wrote the test'], { cwd });
    expect(result.code).toBe(0);
    expect(readdirSync(join(cwd, '.memory', 'sessions'))).toHaveLength(1);
    expect(result.stderr).toMatch(/written, but MEMORY\.md was not rebuilt: .*\(line 3\)/);
  });
});

describe('planIndex and writeAndReindex', () => {
  const FILE = '---\nname: A\ndescription: the a file\ntype: project\n---\nbody\n';

  function memoryDir(index?: string): string {
    const cwd = tempDir();
    dirs.push(cwd);
    const root = join(cwd, '.memory');
    mkdirSync(root);
    writeFileSync(join(root, 'a.md'), FILE);
    if (index !== undefined) writeFileSync(join(root, 'MEMORY.md'), index);
    return root;
  }

  it('plans MEMORY.md without writing it; writeAndReindex runs the change, then writes it', async () => {
    const root = memoryDir();
    const plan = await planIndex(root);
    expect([plan.previous, plan.changed, plan.files, plan.problems]).toEqual([undefined, true, 1, []]);
    expect(plan.text).toContain('- [A](a.md) — the a file');
    expect(existsSync(join(root, 'MEMORY.md'))).toBe(false);
    const warnings: string[] = [];
    const done = await writeAndReindex(root, async () => (writeFileSync(join(root, 'b.md'), FILE.replace('name: A', 'name: B')), 'changed'), (w) => warnings.push(w));
    expect([done.value, done.index?.files, warnings]).toEqual(['changed', 2, []]);
    expect(readFileSync(join(root, 'MEMORY.md'), 'utf8')).toBe(done.index!.text);
    expect((await planIndex(root)).changed).toBe(false);
  });

  it('refuses conflict markers in a memory file, and in the hand-written text; rebuilds a block that holds them', async () => {
    const root = memoryDir();
    writeFileSync(join(root, 'c.md'), '---\nname: C\n---\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> b\n');
    await expect(planIndex(root)).rejects.toMatchObject({ message: 'c.md holds git conflict markers (line 4); MEMORY.md was not rebuilt', line: 4, exitCode: 2 });
    const hand = memoryDir('<<<<<<< HEAD\n# Ours\n=======\n# Theirs\n>>>>>>> b\n');
    await expect(planIndex(hand)).rejects.toMatchObject({ message: 'MEMORY.md holds git conflict markers in its hand-written text (line 1); not rebuilt' });
    const inBlock = memoryDir('# Memory\n\n<!-- memctx:begin -->\n<<<<<<< HEAD\n- x\n=======\n- y\n>>>>>>> b\n<!-- memctx:end -->\n');
    const plan = await planIndex(inBlock);
    expect(plan.text).not.toContain('<<<<<<<');
    expect(plan.text).toContain('- [A](a.md) — the a file');
  });
});
