// cli/run.ts: a command handler run with its context: its exit code, its errors reported on stderr (and as
// JSON with --json), an unexpected failure said plainly.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
import { runMemctx } from '../../helpers/run.js';
import { runHandler } from '../../helpers/context.js';
import { collect } from '../../../src/kernel/cli/run.js';
import { MemctxError } from '../../../src/kernel/errors.js';

async function workspace(): Promise<string> {
  const dir = tempDir();
  await runMemctx(['init'], { cwd: dir });
  mkdirSync(join(dir, 'logs'));
  writeFileSync(join(dir, 'logs/t.jsonl'), '');
  return dir;
}

describe('--json errors', () => {
  it('a command error is a JSON document on stdout too, with the same exit code', async () => {
    const dir = await workspace();
    const out = await runMemctx(['--json', 'show', 'missing.md'], { cwd: dir });
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('memctx: error:');
    const doc = JSON.parse(out.stdout);
    expect(Object.keys(doc.error)).toEqual(['message', 'file', 'line', 'hint', 'exitCode']);
    expect(doc.error.exitCode).toBe(2);
    expect(doc.error.message).toContain('missing.md');
  });
});

describe('runOnce', () => {
  it("the handler's exit code and output", async () => {
    expect(await runHandler({ cwd: '/' }, async (ctx, word: string) => (ctx.ui.info(`hello ${word}`), 1), 'there')).toEqual({ code: 1, stdout: 'hello there\n', stderr: '' });
  });

  it("a MemctxError: its message, file, line and hint on stderr, its exit code", async () => {
    const fail = async () => {
      throw new MemctxError('bad thing', { file: 'a.md', line: 3, hint: 'fix it', exitCode: 1 });
    };
    expect(await runHandler({ cwd: '/' }, fail)).toEqual({ code: 1, stdout: '', stderr: 'memctx: error: a.md:3: bad thing\n  hint: fix it\n' });
  });

  it('any other error: an unexpected failure, exit 2; its stack only with MEMCTX_DEBUG', async () => {
    const fail = async (): Promise<number> => {
      throw new TypeError('x is undefined');
    };
    const plain = await runHandler({ cwd: '/' }, fail);
    expect(plain).toEqual({ code: 2, stdout: '', stderr: 'memctx: error: unexpected failure: x is undefined\n  hint: please report this; set MEMCTX_DEBUG=1 for the stack\n' });
    const debug = await runHandler({ cwd: '/', env: { MEMCTX_DEBUG: '1' } }, fail);
    expect(debug.stderr.startsWith(`${plain.stderr}TypeError: x is undefined\n    at `)).toBe(true);
    const json = await runHandler({ cwd: '/', globals: { json: true } }, fail);
    expect(JSON.parse(json.stdout)).toEqual({ error: { message: 'unexpected failure: x is undefined', file: null, line: null, hint: 'please report this; set MEMCTX_DEBUG=1 for the stack', exitCode: 2 } });
  });
});

describe('collect', () => {
  it('gathers the values of a repeated option in order', () => {
    expect(collect('b', collect('a'))).toEqual(['a', 'b']);
  });
});
