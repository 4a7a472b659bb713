import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runMemctx } from '../../../helpers/run.js';
import { removeDir, tempDir } from '../../../helpers/cli.js';

const NOW = new Date('2026-11-21T15:30:12Z');
const MB = 1024 * 1024;

describe('files memctx writes are files memctx reads', () => {
  let root: string;
  let dir: string;
  const run = (args: string[], input?: string) => runMemctx(['--dir', dir, ...args], { cwd: root, now: NOW, input });
  const head = (name: string) => `---\nname: ${name}\ndescription: ${name} file\ntype: user\nupdated: 2026-11-01\n---\n`;
  beforeEach(async () => {
    root = tempDir();
    dir = join(root, '.memory');
    expect((await runMemctx(['init'], { cwd: root })).code).toBe(0);
  });
  afterEach(() => removeDir(root));

  it('edit refuses to push a file over the 1 MB limit', async () => {
    const text = `${head('big')}${'x'.repeat(MB - 200)}\nEND\n`;
    writeFileSync(join(dir, 'big.md'), text);
    const r = await run(['edit', 'big.md', '--old', 'END', '--new', 'y'.repeat(500)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/memctx: error: big\.md: the file would be \d+ bytes, over the 1048576-byte limit memctx reads; nothing written/);
    expect(readFileSync(join(dir, 'big.md'), 'utf8')).toBe(text);
  });

  it('mv keeps the bytes untouched when setting updated would take the file over the limit', async () => {
    const text = `---\nname: big\ndescription: big file\ntype: user\n---\n${'x'.repeat(MB - 70)}\n`;
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MB);
    writeFileSync(join(dir, 'big.md'), text);
    const r = await run(['mv', 'big.md', 'large.md']);
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, 'large.md'), 'utf8')).toBe(text);
    const ls = await run(['ls', '--json']);
    expect(ls.code).toBe(0);
  });

  it('lint --fix does not push a file over the limit, and says why', async () => {
    // Lines of 100 bytes, not one line of 1 MB: the same size, without a 1 MB token piece to count (0.7 s).
    const lines = `${'x'.repeat(99)}\n`.repeat(Math.floor((MB - 70) / 100));
    const text = `---\nname: big\ndescription: big file\ntype: user\n---\n${lines}${'x'.repeat(MB - 70 - lines.length)}\n`;
    writeFileSync(join(dir, 'big.md'), text);
    const r = await run(['lint', '--fix']);
    expect(r.stderr).toContain('warning: big.md: not fixed: the file would be');
    expect(r.stderr).toContain('split it into smaller memory files');
    expect(readFileSync(join(dir, 'big.md'), 'utf8')).toBe(text);
  });

  it('add --body-file and stdin refuse NUL bytes', async () => {
    writeFileSync(join(root, 'body.bin'), 'line one\nline\0two\n');
    const file = await run(['add', 'n', '--name', 'N', '--description', 'd', '--type', 'user', '--body-file', 'body.bin']);
    expect(file.code).toBe(2);
    expect(file.stderr).toContain('memctx: error: body.bin:2: binary data (a NUL byte at offset 13), not a text file; memory files are UTF-8 text');
    const stdin = await run(['add', 'n', '--name', 'N', '--description', 'd', '--type', 'user'], 'a\0b');
    expect(stdin.code).toBe(2);
    expect(stdin.stderr).toContain('memctx: error: stdin:1: binary data');
    expect(() => readFileSync(join(dir, 'n.md'))).toThrow();
  });

  it('flush --from refuses NUL bytes', async () => {
    writeFileSync(join(root, 'fields.json'), Buffer.from('{"goal": "a\0b"}'));
    const r = await run(['flush', '--from', 'fields.json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('memctx: error: fields.json:1: binary data (a NUL byte at offset 11)');
  });

  it('lint reports nothing against the generated index for a symlinked file or a name with a line break', async () => {
    writeFileSync(join(dir, 'real.md'), head('real'));
    symlinkSync('real.md', join(dir, 'alias.md'));
    writeFileSync(join(dir, 'two\nlines.md'), head('two'));
    expect((await run(['index'])).code).toBe(0);
    const r = await run(['lint', '--format', 'json']);
    const messages = (JSON.parse(r.stdout) as { filePath: string; messages: { ruleId: string; message: string }[] }[]).flatMap((f) => f.messages.map((m) => ({ ...m, file: f.filePath })));
    expect(messages.filter((m) => m.ruleId.startsWith('index/'))).toEqual([]);
    expect(messages.filter((m) => m.ruleId === 'files/name').map((m) => m.message)).toEqual(['its name holds a line break, so memctx show/edit/rm/mv cannot name it; rename it']);
    expect(r.code).toBe(0);
  });

  it('lint warns about notes that are never indexed', async () => {
    mkdirSync(join(dir, '.drafts'));
    writeFileSync(join(dir, '.drafts', 'idea.md'), head('idea'));
    writeFileSync(join(dir, 'todo.txt'), 'buy milk\n');
    writeFileSync(join(dir, 'back\\slash.md'), head('bs'));
    expect((await run(['index'])).code).toBe(0);
    const r = await run(['lint']);
    expect(r.stdout).toContain('never indexed: files in dot-folders and dot-files are skipped');
    expect(r.stdout).toContain('never indexed: only .md files are memory files; rename it to todo.md if it is a memory');
    expect(r.stdout).toContain('its name holds a backslash, so memctx show/edit/rm/mv cannot name it; rename it');
    expect(r.stdout).toContain('3 problems (0 errors, 3 warnings)');
  });
});

describe('the memory tool refuses what memctx could not read back', () => {
  it('create with a NUL byte, str_replace past 1 MB', async () => {
    const { runMemoryCommand } = await import('../../../../src/commands/memory/memory.js');
    const root = tempDir();
    try {
      const dir = join(root, '.memory');
      mkdirSync(dir);
      const now = () => new Date('2026-11-21T15:30:12Z');
      await expect(runMemoryCommand(dir, { command: 'create', path: '/memories/bin.md', file_text: 'a\0b' }, { now })).rejects.toThrow(/would hold binary data \(a NUL byte/);
      expect(() => readFileSync(join(dir, 'bin.md'))).toThrow();
      await runMemoryCommand(dir, { command: 'create', path: '/memories/big.md', file_text: `${'x'.repeat(MB - 300)}\nEND\n` }, { now });
      const before = readFileSync(join(dir, 'big.md'), 'utf8');
      await expect(runMemoryCommand(dir, { command: 'str_replace', path: '/memories/big.md', old_str: 'END', new_str: 'y'.repeat(600) }, { now })).rejects.toThrow(/over the 1048576-byte limit memctx reads; nothing written/);
      expect(readFileSync(join(dir, 'big.md'), 'utf8')).toBe(before);
    } finally {
      removeDir(root);
    }
  });
});
