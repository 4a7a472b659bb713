// init/scaffold.ts: the memory directory's skeleton, never overwriting (init.test.ts runs it through `memctx init`).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { initMemoryDir } from '../../../src/commands/init/scaffold.js';
import { tempDir } from '../../helpers/cli.js';

const index = () => '# Memory\n';

/** A memory directory holding only the .gitignore given (and MEMORY.md and templates/, so only .gitignore can change). */
function withGitignore(text: string): string {
  const root = join(tempDir(), '.memory');
  mkdirSync(join(root, 'templates'), { recursive: true });
  writeFileSync(join(root, 'MEMORY.md'), 'mine\n');
  writeFileSync(join(root, '.gitignore'), text);
  return root;
}

describe('initMemoryDir', () => {
  it('creates what is missing, in order, and calls for the empty index only when MEMORY.md is missing', async () => {
    const root = join(tempDir(), 'deep', '.memory');
    let asked = 0;
    expect(await initMemoryDir(root, () => (asked++, index()))).toEqual(['.', 'templates/', '.gitignore', 'MEMORY.md']);
    expect([readFileSync(join(root, 'MEMORY.md'), 'utf8'), readFileSync(join(root, 'templates/.gitkeep'), 'utf8'), asked]).toEqual(['# Memory\n', '', 1]);
    expect(await initMemoryDir(root, () => (asked++, index()))).toEqual([]);
    expect(asked).toBe(1);
  });

  it('the cache line counts however it is written; only the missing temp-file line is added', async () => {
    for (const line of ['.memctx', '/.memctx/', '  .memctx/  ']) {
      const root = withGitignore(`${line}\nscratch/\n`);
      expect(await initMemoryDir(root, index)).toEqual(['.gitignore']);
      expect(readFileSync(join(root, '.gitignore'), 'utf8')).toBe(`${line}\nscratch/\n.memctx-tmp-*\n`);
    }
  });

  it('a .gitignore without a final newline gets one before the added lines; a complete one is left alone', async () => {
    const root = withGitignore('scratch/');
    expect(await initMemoryDir(root, index)).toEqual(['.gitignore']);
    expect(readFileSync(join(root, '.gitignore'), 'utf8')).toBe('scratch/\n.memctx/\n.memctx-tmp-*\n');
    const done = withGitignore('.memctx/\r\n.memctx-tmp-*\r\n');
    expect(await initMemoryDir(done, index)).toEqual([]);
    expect(readFileSync(join(done, '.gitignore'), 'utf8')).toBe('.memctx/\r\n.memctx-tmp-*\r\n');
  });

  it("replaces earlier versions' temp-file line, keeping CRLF endings", async () => {
    const root = withGitignore('.memctx/\r\n*.md.[0-9]*\r\nnotes/\r\n');
    expect(await initMemoryDir(root, index)).toEqual(['.gitignore']);
    expect(readFileSync(join(root, '.gitignore'), 'utf8')).toBe('.memctx/\r\n.memctx-tmp-*\r\nnotes/\r\n');
  });

  it('refuses a path that is a file, naming it', async () => {
    const file = join(tempDir(), 'taken');
    writeFileSync(file, 'x');
    await expect(initMemoryDir(file, index)).rejects.toThrow(`${file} exists and is not a directory`);
  });
});
