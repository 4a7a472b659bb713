import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, symlinkSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../../src/main.js';
import { memctx, removeDir, tempDir } from '../../../helpers/cli.js';
import { runMemctx } from '../../../helpers/run.js';
import { openTranscriptFile } from '../../../../src/kernel/sources/transcript-file.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

/** A memory folder with one file, removed after the test (or, with `forFile`, after the test file). */
function memoryDir(forFile = false): { cwd: string; root: string } {
  const cwd = tempDir();
  if (!forFile) dirs.push(cwd);
  const root = join(cwd, '.memory');
  mkdirSync(join(root, 'sub'), { recursive: true });
  writeFileSync(join(root, 'MEMORY.md'), '# Memory\n');
  writeFileSync(join(root, 'a.md'), '---\nname: A\ndescription: first\ntype: user\n---\nbody\n');
  return { cwd, root };
}

describe('nothing hangs on a FIFO', () => {
  // Spawned with a timeout: a command blocked in open() cannot be interrupted in-process. One memory
  // folder, one test per command (in this order): none nears its timeout on a loaded machine.
  let linked = { cwd: '', root: '' };
  beforeAll(() => {
    linked = memoryDir(true);
    execFileSync('mkfifo', [join(linked.root, 'sub', 'pipe')]);
    symlinkSync('sub/pipe', join(linked.root, 'p.md'));
  });
  it.each([['index'], ['ls'], ['lint'], ['pack'], ['search', 'first'], ['gc'], ['show', 'p.md']].map((args) => [args.join(' '), args] as const))('a symlink to a FIFO inside .memory: %s finishes and reports it', (_, args) => {
    const result = memctx([...args], { cwd: linked.cwd, timeout: 15_000 });
    expect(result.code, `${args.join(' ')}: ${result.stderr}`).not.toBe(-1);
    if (args[0] !== 'gc') expect(result.stderr + result.stdout, args.join(' ')).toContain('not a regular file');
  });

  it('a FIFO as a transcript is refused by status, compact, flush and the status line', () => {
    const { cwd } = memoryDir();
    execFileSync('mkfifo', [join(cwd, 'fifo')]);
    for (const args of [['status', 'fifo'], ['compact', 'fifo']]) {
      const result = memctx(args, { cwd, timeout: 15_000 });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain('fifo: is a FIFO (named pipe), not a transcript file');
    }
    const flush = memctx(['flush', '--transcript', 'fifo', '--goal', 'g', '--dry-run'], { cwd, timeout: 15_000 });
    expect(flush.code).toBe(0);
    expect(flush.stderr).toContain('is a FIFO (named pipe)');
    const line = memctx(['status', '--statusline'], { cwd, input: JSON.stringify({ transcript_path: join(cwd, 'fifo') }), timeout: 15_000 });
    expect(line.code).toBe(0);
  });
});

describe('nothing grows without bound', () => {
  it('endless stdin stops at the cap with a clear error', async () => {
    const { cwd } = memoryDir();
    const chunk = Buffer.alloc(1 << 20, 0x61);
    const endless = Object.assign(
      new Readable({
        read() {
          this.push(chunk);
        },
      }),
      { isTTY: false },
    );
    let stderr = '';
    const code = await main(['node', 'memctx', 'status', '-'], {
      stdout: { write: () => true },
      stderr: { write: (t: string) => ((stderr += t), true) },
      stdin: endless,
      cwd,
      env: { NO_COLOR: '1' },
      home: cwd,
      now: () => new Date(),
    });
    expect(code).toBe(2);
    expect(stderr).toContain('more than 64 MB on stdin; not read');
  });

  it('a transcript over the size cap is refused when it must be read whole, at once', async () => {
    const { cwd } = memoryDir();
    const fd = openSync(join(cwd, 'big.txt'), 'w');
    writeSync(fd, 'hello world\n');
    closeSync(fd);
    truncateSync(join(cwd, 'big.txt'), 70 * 1024 * 1024 + 12);
    // a sparse tail of NUL bytes: binary, found by the first backward read
    const sparse = await runMemctx(['status', 'big.txt'], { cwd });
    expect(sparse.code).toBe(2);
    expect(sparse.stderr).toMatch(/looks like a binary file \(a NUL byte at offset \d+\)/);
    writeFileSync(join(cwd, 'line.txt'), 'a'.repeat(70 * 1024 * 1024));
    // How fast: bench/hardening.bench.ts (status, 100 MB single line).
    const line = await runMemctx(['status', 'line.txt'], { cwd });
    expect(line.code).toBe(2);
    expect(line.stderr).toContain('line.txt: is 70 MB, over the 64 MB limit for reading a transcript whole; not read');
    const compact = await runMemctx(['compact', 'line.txt'], { cwd });
    expect(compact.code).toBe(2);
    expect(compact.stderr).toContain('over the 64 MB limit');
  });

  it('the backward line scan skips a line too long to hold usage and still finds the lines before it', () => {
    const { cwd } = memoryDir();
    const path = join(cwd, 't.jsonl');
    const fd = openSync(path, 'w');
    writeSync(fd, '{"first":1}\n');
    const block = Buffer.alloc(1 << 20, 0x62);
    for (let i = 0; i < 20; i++) writeSync(fd, block);
    writeSync(fd, '\n{"last":2}\n');
    closeSync(fd);
    const file = openTranscriptFile(path);
    try {
      const lines = [...file.linesBackward()].reverse().flatMap((c) => c.lines);
      expect(lines.map((l) => l.slice(0, 20))).toEqual(['{"first":1}', '', '{"last":2}']);
    } finally {
      file.close();
    }
  });
});
