import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO, removeDir, tempDir } from '../../helpers/cli.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

const built = (path: string) => JSON.stringify(pathToFileURL(join(REPO, 'dist/src/kernel/store', path)).href);

/** Run an ES module script in a fresh Node (its own module cache); its stdout parsed as JSON. */
function fresh(script: string, home: string): Record<string, unknown> {
  const env = { ...process.env, HOME: home, XDG_CACHE_HOME: join(home, 'cache') };
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: REPO, env, encoding: 'utf8' })) as Record<string, unknown>;
}

const LOADED = "const loaded = () => Object.keys(require.cache).filter((k) => /[\\\\/]node_modules[\\\\/](graceful-fs|proper-lockfile)[\\\\/]/.test(k)).map((k) => k.split(/[\\\\/]node_modules[\\\\/]/).pop().split(/[\\\\/]/)[0]);";

describe('properLockfile', () => {
  it('takes the memory lock without loading graceful-fs, which a caller leaving out `fs` still gets', () => {
    const home = tempDir();
    dirs.push(home);
    const root = join(home, 'memory');
    const out = fresh(
      [
        "import { createRequire } from 'node:module'; import { mkdirSync, existsSync } from 'node:fs';",
        'const require = createRequire(import.meta.url);',
        LOADED,
        `const { withMemoryLock } = await import(${built('write.js')});`,
        `const { properLockfile } = await import(${built('lock-library.js')});`,
        `mkdirSync(${JSON.stringify(root)}, { recursive: true });`,
        `const ran = await withMemoryLock(${JSON.stringify(root)}, async () => 'ran');`,
        'const afterLock = loaded();',
        `const file = ${JSON.stringify(`${root}-other`)}; mkdirSync(file);`,
        // proper-lockfile's own default fs: graceful-fs, loaded now.
        'const release = await properLockfile().lock(file);',
        "const made = existsSync(file + '.lock');",
        'await release();',
        "const graceful = require(createRequire(require.resolve('proper-lockfile')).resolve('graceful-fs'));",
        "process.stdout.write(JSON.stringify({ ran, afterLock, made, afterDefault: loaded(), gracefulify: typeof graceful.gracefulify, same: properLockfile() === require('proper-lockfile') }));",
      ].join('\n'),
      home,
    );
    expect(out).toEqual({ ran: 'ran', afterLock: ['proper-lockfile', 'proper-lockfile', 'proper-lockfile', 'proper-lockfile'], made: true, afterDefault: ['proper-lockfile', 'proper-lockfile', 'proper-lockfile', 'proper-lockfile', 'graceful-fs', 'graceful-fs', 'graceful-fs', 'graceful-fs'], gracefulify: 'function', same: true });
  });

  it('gives the module already loaded, with its graceful-fs, when something required proper-lockfile first', () => {
    const home = tempDir();
    dirs.push(home);
    const out = fresh(
      [
        "import { createRequire } from 'node:module';",
        'const require = createRequire(import.meta.url);',
        LOADED,
        "const first = require('proper-lockfile');",
        `const { properLockfile } = await import(${built('lock-library.js')});`,
        'process.stdout.write(JSON.stringify({ same: properLockfile() === first, graceful: loaded().includes("graceful-fs") }));',
      ].join('\n'),
      home,
    );
    expect(out).toEqual({ same: true, graceful: true });
  });
});
