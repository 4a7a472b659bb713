// cli/input.ts: stdin and --body/--body-file for the commands that take a body or a hook's JSON.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { hookDeps, readBodyInput, readStdin } from '../../../src/kernel/cli/input.js';
import { tempDir } from '../../helpers/cli.js';
import { runHandler } from '../../helpers/context.js';

/** What readBodyInput gives for these flags, or the error as the CLI reports it. */
async function body(flags: { body?: string; bodyFile?: string }, options: { cwd?: string; input?: string } = {}) {
  let text: string | undefined;
  const result = await runHandler({ cwd: options.cwd ?? tempDir(), input: options.input }, async (ctx) => {
    text = await readBodyInput(ctx, flags);
    return 0;
  });
  return result.code === 0 ? text : result.stderr;
}

describe('readBodyInput', () => {
  it('--body as given; otherwise stdin (BOM and CRLF decoded as memory text)', async () => {
    expect(await body({ body: 'Inline text.' }, { input: 'ignored' })).toBe('Inline text.');
    expect(await body({}, { input: '\uFEFFFrom stdin.\r\n' })).toBe(await body({ bodyFile: '-' }, { input: '\uFEFFFrom stdin.\r\n' }));
    expect(await body({}, { input: 'From stdin.\n' })).toBe('From stdin.\n');
    expect(await body({})).toBe('');
  });

  it('--body-file is read relative to the working directory', async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, 'notes'));
    writeFileSync(join(cwd, 'notes/body.md'), 'From a file.\n');
    expect(await body({ bodyFile: 'notes/body.md' }, { cwd })).toBe('From a file.\n');
  });

  it('refuses both flags, and a --body-file that cannot be read, naming it', async () => {
    expect(await body({ body: 'a', bodyFile: 'b.md' })).toBe('memctx: error: give either --body or --body-file, not both\n');
    expect(await body({ bodyFile: 'missing.md' })).toBe('memctx: error: missing.md: no such file\n  hint: check the path\n');
    const cwd = tempDir();
    mkdirSync(join(cwd, 'folder.md'));
    expect(await body({ bodyFile: 'folder.md' }, { cwd })).toBe('memctx: error: folder.md: is a directory, not a regular file; not read\n  hint: pass a regular file\n');
  });
});

describe('readStdin', () => {
  it('reads the whole stream as UTF-8, and refuses one past the limit', async () => {
    expect(await readStdin(Readable.from([Buffer.from('caf'), Buffer.from([0xc3]), Buffer.from([0xa9])]))).toBe('café');
    await expect(readStdin(Readable.from(['x'.repeat(20)]), 10)).rejects.toThrow(/stdin/);
  });
});

describe('hookDeps', () => {
  it("passes the context's io and the options that choose the memory directory", async () => {
    let deps: ReturnType<typeof hookDeps> | undefined;
    await runHandler({ cwd: '/w', globals: { dir: 'mem', claude: true }, input: '{"a":1}' }, async (ctx) => {
      deps = hookDeps(ctx);
      return 0;
    });
    expect([deps!.cwd, deps!.dir, deps!.claude, deps!.stdinIsTTY, deps!.home, deps!.now().toISOString()]).toEqual(['/w', 'mem', true, false, '/nonexistent-home', '2026-11-20T10:00:00.000Z']);
    expect(await deps!.readStdin()).toBe('{"a":1}');
  });
});
