import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { codeCacheDir, loadScript } from '../../src/cache/code-cache.js';
import { BIN, removeTempDirs, tempDir } from '../helpers/cli.js';
import { callTool, connectStdio, stdioProject } from '../helpers/mcp.js';
import { SECRETS_24 } from '../helpers/secrets24.js';

afterAll(removeTempDirs);

const uid = process.getuid?.();

/** A CommonJS file whose exports show it ran as `require` runs a module. */
function scriptFile(): string {
  const file = join(tempDir(), 'entry.cjs');
  writeFileSync(file, "const path = require('node:path');\nfunction twice(n) { return n * 2; }\nmodule.exports = { name: path.basename(__filename), twice: twice(21), self: this === exports };\n");
  return file;
}

const EXPORTS = { name: 'entry.cjs', twice: 42, self: true };

describe('the hot paths\' code cache (cache/code-cache.ts)', () => {
  it('lives under the temporary folder per user and runtime, elsewhere with MEMCTX_COMPILE_CACHE, nowhere when turned off', () => {
    expect(codeCacheDir({}, '/tmp', 'v20.1.0-x64', 501)).toBe('/tmp/memctx-compile-cache-501/v20.1.0-x64');
    expect(codeCacheDir({}, '/tmp', 'v20.1.0-x64', undefined)).toBe('/tmp/memctx-compile-cache/v20.1.0-x64');
    expect(codeCacheDir({ MEMCTX_COMPILE_CACHE: '/c' }, '/tmp', 'v20.1.0-x64', 501)).toBe('/c/v20.1.0-x64');
    expect(codeCacheDir({ MEMCTX_DISABLE_COMPILE_CACHE: '1' }, '/tmp', 'r', 501)).toBeUndefined();
    expect(codeCacheDir({ NODE_DISABLE_COMPILE_CACHE: '1' }, '/tmp', 'r', 501)).toBeUndefined();
  });

  it('runs the file as require would, saves its compiled code once, and uses it on the next run', () => {
    const file = scriptFile();
    const dir = join(tempDir(), 'cache', 'runtime');
    const first = loadScript(file, 'k1', dir, uid);
    expect(first.exports).toEqual(EXPORTS);
    expect(createRequire(file).cache[file]?.exports).toBe(first.exports);
    expect(first.save).toBeTypeOf('function');
    first.save!();
    first.save!();
    expect(readdirSync(dir)).toEqual(['entry.cjs-k1.bin']);
    if (uid !== undefined) expect(statSync(join(dir, 'entry.cjs-k1.bin')).mode & 0o777).toBe(0o600);
    const second = loadScript(file, 'k1', dir, uid);
    expect(second.exports).toEqual(EXPORTS);
    expect(second.save).toBeUndefined();
    // another content (another key) has its own entry
    expect(loadScript(file, 'k2', dir, uid).save).toBeTypeOf('function');
  });

  it('a damaged cache compiles as usual and is written again; no cache folder, no cache', () => {
    const file = scriptFile();
    const dir = join(tempDir(), 'cache', 'runtime');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(join(dir, 'entry.cjs-k.bin'), Buffer.from('not compiled code at all'));
    const damaged = loadScript(file, 'k', dir, uid);
    expect(damaged.exports).toEqual(EXPORTS);
    damaged.save!();
    expect(loadScript(file, 'k', dir, uid).save).toBeUndefined();
    expect(readdirSync(dir)).toEqual(['entry.cjs-k.bin']);
    expect(loadScript(file, 'k', undefined, uid)).toEqual({ exports: EXPORTS });
  });

  it.skipIf(uid === undefined)('a cache folder others may write is neither read nor written', () => {
    const file = scriptFile();
    const top = join(tempDir(), 'cache');
    const dir = join(top, 'runtime');
    loadScript(file, 'k', dir, uid).save!();
    const saved = readFileSync(join(dir, 'entry.cjs-k.bin'));
    chmodSync(top, 0o777);
    const open = loadScript(file, 'k', dir, uid);
    expect(open.exports).toEqual(EXPORTS);
    expect(open.save).toBeTypeOf('function');
    writeFileSync(join(dir, 'entry.cjs-k.bin'), 'planted');
    open.save!();
    expect(readFileSync(join(dir, 'entry.cjs-k.bin'), 'utf8')).toBe('planted');
    expect(saved.length).toBeGreaterThan(0);
  });

  it('two runs saving at once leave one whole cache file', () => {
    const file = scriptFile();
    const dir = join(tempDir(), 'cache', 'runtime');
    const a = loadScript(file, 'k', dir, uid);
    const b = loadScript(file, 'k', dir, uid);
    a.save!();
    b.save!();
    expect(readdirSync(dir)).toEqual(['entry.cjs-k.bin']);
    expect(loadScript(file, 'k', dir, uid).save).toBeUndefined();
  });

  it('the built bin writes each hot path\'s cache once and prints the same with it; turned off, it writes none', () => {
    const cache = join(tempDir(), 'cache');
    const off = join(tempDir(), 'off');
    const dir = join(tempDir(), 'none');
    const run = (env: Record<string, string>) => spawnSync(process.execPath, [BIN, '--dir', dir, 'flush', '--hook'], { input: '{}', encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...env } });
    const first = run({ MEMCTX_COMPILE_CACHE: cache });
    const [runtime] = readdirSync(cache);
    expect(readdirSync(join(cache, runtime))).toEqual([expect.stringMatching(/^flush-hook\.cjs-[0-9a-f]{16}\.bin$/)]);
    const second = run({ MEMCTX_COMPILE_CACHE: cache });
    const third = run({ MEMCTX_COMPILE_CACHE: off, MEMCTX_DISABLE_COMPILE_CACHE: '1' });
    expect([second.status, second.stdout, second.stderr]).toEqual([first.status, first.stdout, first.stderr]);
    expect([third.status, third.stdout, third.stderr]).toEqual([first.status, first.stdout, first.stderr]);
    expect(existsSync(off)).toBe(false);
  });

  it('the built mcp finds secrets through secretlint.cjs, the file beside its entry', async () => {
    const dir = stdioProject();
    const secret = SECRETS_24[2];
    writeFileSync(join(dir, '.memory', 'keys.md'), `---\nname: keys\ndescription: a token\ntype: project\n---\n\n${secret.line}\n`);
    const client = await connectStdio(dir);
    try {
      const view = await callTool(client, 'memory', { command: 'view', path: '/memories/keys.md' });
      expect(view.isError).toBe(false);
      expect(view.text).toContain('github token');
      expect(view.text).not.toContain(secret.value);
    } finally {
      await client.close();
    }
  });
});
