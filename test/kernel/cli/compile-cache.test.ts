// cli/compile-cache.ts: the compile cache's folder name, and when it is turned on (test/e2e/compile-cache.test.ts
// runs the bin on Node 20 and 24 and damages the cache's entries).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileCacheName, enableCompileCache } from '../../../src/kernel/cli/compile-cache.js';
import { tempDir } from '../../helpers/cli.js';

describe('two installs', () => {
  it('never share a compile cache folder: it is named by version and install', () => {
    const a = compileCacheName('1.2.0', 'file:///usr/lib/node_modules/memctx/dist/src/kernel/cli/compile-cache.js');
    expect(a).toMatch(/^compile-cache-1\.2\.0-[0-9a-f]{8}$/);
    expect(compileCacheName('1.2.0', 'file:///home/u/p/node_modules/memctx/dist/src/kernel/cli/compile-cache.js')).not.toBe(a);
    expect(compileCacheName('1.3.0', 'file:///usr/lib/node_modules/memctx/dist/src/kernel/cli/compile-cache.js')).not.toBe(a);
    expect(compileCacheName('1.2.0', 'file:///usr/lib/node_modules/memctx/dist/src/kernel/cli/compile-cache.js')).toBe(a);
  });
});

describe('enableCompileCache', () => {
  it('MEMCTX_DISABLE_COMPILE_CACHE or NODE_DISABLE_COMPILE_CACHE: no folder is made, on any Node', () => {
    for (const off of ['MEMCTX_DISABLE_COMPILE_CACHE', 'NODE_DISABLE_COMPILE_CACHE']) {
      const home = tempDir();
      enableCompileCache({ HOME: home, XDG_CACHE_HOME: join(home, 'xdg'), [off]: '1' }, 'file:///x/memctx/dist/src/kernel/cli/compile-cache.js');
      expect(existsSync(join(home, 'xdg'))).toBe(false);
    }
  });
});
