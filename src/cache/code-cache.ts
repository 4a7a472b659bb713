/**
 * V8's compiled code for the hot paths' CommonJS bundles (dist/cli/*.cjs), kept between runs so that a
 * hook run after every message or session skips compiling its bundle: what Node 22 does with
 * `module.enableCompileCache()`, by hand for Node 20 (`vm.Script` with `cachedData`). The code is saved
 * after the run, so it holds every function the run compiled, not only the top level. A cache that is
 * missing, unreadable, rejected by V8 or not safely ours compiles as usual; it is never an error.
 */
import { closeSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script, constants } from 'node:vm';

/** The cache folder for this user and runtime, or undefined when it is turned off. */
export function codeCacheDir(env: NodeJS.ProcessEnv, tmp: string, runtime: string, uid: number | undefined): string | undefined {
  if (env.MEMCTX_DISABLE_COMPILE_CACHE || env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  return join(env.MEMCTX_COMPILE_CACHE || join(tmp, `memctx-compile-cache${uid === undefined ? '' : `-${uid}`}`), runtime);
}

/**
 * Whether the folder that holds the runtime's folder is a real directory of this user that no one else
 * may write (the default sits in a shared temporary folder, and cached code is code that runs).
 */
function owned(dir: string, uid: number | undefined): boolean {
  const stat = lstatSync(dirname(dir), { throwIfNoEntry: false });
  return !!stat && stat.isDirectory() && (uid === undefined || (stat.uid === uid && (stat.mode & 0o022) === 0));
}

/** A loaded bundle's exports, and `save` when its compiled code should be written to the cache (once, after the run). */
export interface LoadedScript {
  exports: unknown;
  save?: () => void;
}

/**
 * Run a CommonJS file as `require` would (registered in require.cache), with its compiled code from
 * `dir` when a run saved it there. `key` names the file's content (the build's hash of it).
 */
export function loadScript(file: string, key: string, dir: string | undefined, uid: number | undefined): LoadedScript {
  const source = readFileSync(file, 'utf8');
  const cacheFile = dir && join(dir, `${basename(file)}-${key}.bin`);
  let cachedData: Buffer | undefined;
  try {
    if (cacheFile && owned(dir, uid)) cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new Script(`(function (exports, require, module, __filename, __dirname) { ${source}\n})`, {
    filename: file,
    cachedData,
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const require = createRequire(file);
  const module = new Module(file);
  module.filename = file;
  require.cache[file] = module;
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, require, module, file, dirname(file));
  module.loaded = true;
  if (!cacheFile || (cachedData !== undefined && !script.cachedDataRejected)) return { exports: module.exports };
  let saved = false;
  const save = () => {
    if (saved) return;
    saved = true;
    writeCache(cacheFile, script.createCachedData(), uid);
  };
  return { exports: module.exports, save };
}

/** Write the cache file whole or not at all: a file of its own, renamed over the name (another process may race to write the same). */
function writeCache(cacheFile: string, data: Buffer, uid: number | undefined): void {
  const dir = dirname(cacheFile);
  const tmp = `${cacheFile}.${process.pid}.tmp`;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!owned(dir, uid)) return;
    const fd = openSync(tmp, 'wx', 0o600);
    try {
      for (let done = 0; done < data.length; ) done += writeSync(fd, data, done, data.length - done);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, cacheFile);
  } catch {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // nothing to clean up, or nothing that can be
    }
  }
}
