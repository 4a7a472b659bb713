import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { memctx, removeDir, tempDir } from '../helpers/cli.js';
import { runCli } from '../helpers/run.js';

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
