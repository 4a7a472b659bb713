// Node's compile cache (Node >= 22.1) in a private per-user folder; none on Node 20 and no code cache
// of memctx's own (issue 30, item 3). CI runs this file on Node 20 and on Node 24.
import * as nodeModule from 'node:module';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { memctx, removeDir, REPO, tempDir } from '../helpers/cli.js';
import { compileCacheName } from '../../src/kernel/cli/compile-cache.js';
import { VERSION } from '../../src/kernel/version.js';
import { userCacheDir } from '../../src/kernel/state/folder.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));
const hasCompileCache = typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === 'function';

function home(): string {
  const dir = tempDir();
  dirs.push(dir);
  return dir;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe('the per-user folder for the compile cache', () => {
  it('is memctx/compile-cache under XDG_CACHE_HOME, made 0700', () => {
    const h = home();
    const dir = userCacheDir('compile-cache', { HOME: h, XDG_CACHE_HOME: join(h, 'xdg') });
    expect(dir).toBe(join(h, 'xdg', 'memctx', 'compile-cache'));
    expect(statSync(dir!).mode & 0o777).toBe(0o700);
  });

  it('is never a folder another user made, a link, or one others may write', () => {
    const h = home();
    const env = { HOME: join(h, 'none-such', 'x'), XDG_CACHE_HOME: join(h, 'xdg') };
    mkdirSync(join(h, 'xdg', 'memctx'), { recursive: true, mode: 0o700 });
    chmodSync(join(h, 'xdg', 'memctx'), 0o777);
    // HOME's cache is the fallback: make it unusable too, so nothing is found.
    writeFileSync(join(h, 'none-such'), 'a file\n');
    expect(userCacheDir('compile-cache', env)).toBeUndefined();
    chmodSync(join(h, 'xdg', 'memctx'), 0o700);
    chownSync(join(h, 'xdg', 'memctx'), 4242, 4242);
    expect(userCacheDir('compile-cache', env)).toBeUndefined();
    chownSync(join(h, 'xdg', 'memctx'), process.getuid!(), process.getgid!());
    mkdirSync(join(h, 'elsewhere'));
    symlinkSync(join(h, 'elsewhere'), join(h, 'xdg', 'memctx', 'compile-cache'));
    expect(userCacheDir('compile-cache', env)).toBeUndefined();
    expect(readdirSync(join(h, 'elsewhere'))).toEqual([]);
  });
});

describe(`a hook run on Node ${process.versions.node}`, () => {
  // `index --staged`, a hot path's own entry, outside git: refused at once (exit 2), after loading its bundle.
  function run(cwd: string, env: Record<string, string>) {
    return memctx(['index', '--staged'], { cwd, env });
  }

  it(hasCompileCache ? 'fills the compile cache, and a damaged entry is recompiled, never a crash' : 'leaves no compiled code anywhere (Node 20 has no compile cache)', () => {
    const h = home();
    const cwd = join(h, 'p');
    mkdirSync(join(cwd, '.memory'), { recursive: true });
    writeFileSync(join(cwd, '.memory', 'MEMORY.md'), '# Memory\n');
    const env = { HOME: h, XDG_CACHE_HOME: join(h, 'xdg') };
    const first = run(cwd, env);
    expect(first.code).toBe(2);
    expect(first.stderr).toContain('not in a git working tree');
    const cache = join(h, 'xdg', 'memctx', compileCacheName(VERSION, pathToFileURL(join(REPO, 'dist/src/kernel/cli/compile-cache.js')).href));
    if (!hasCompileCache) {
      expect(existsSync(join(h, 'xdg', 'memctx'))).toBe(false);
      return;
    }
    const entries = filesUnder(cache);
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) {
      const bytes = readFileSync(entry);
      for (let i = 16; i < bytes.length; i += 7) bytes[i] ^= 0xff;
      writeFileSync(entry, bytes);
    }
    const again = run(cwd, env);
    expect(again).toEqual(first);
    expect(run(cwd, { ...env, MEMCTX_DISABLE_COMPILE_CACHE: '1' })).toEqual(first);
  });
});
