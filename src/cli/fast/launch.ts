/**
 * bin/memctx.js's helper, built into dist/cli/route.cjs: which entry a command line takes (route.ts),
 * and a hot path's CommonJS entry loaded with V8's code cache (cache/code-cache.ts) — on Node 22 and
 * later, Node's own (`module.enableCompileCache`) in the same folder. `MEMCTX_DISABLE_COMPILE_CACHE`
 * (or Node's `NODE_DISABLE_COMPILE_CACHE`) turns it off; `MEMCTX_COMPILE_CACHE` names another folder.
 */
import * as nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codeCacheDir, loadScript } from '../../cache/code-cache.js';
import type { FastEntry } from './route.js';

export { fastRoute, mainEntry } from './route.js';

/** Each hot path's bundle → a hash of its content (scripts/bundle.mjs): the cache's key. */
declare const __MEMCTX_ENTRY_HASHES__: Record<string, string> | undefined;

/** How long a long-running entry (`mcp`) runs before its compiled code is saved, if it has not exited. */
const SAVE_AFTER_MS = 1000;

/** Load a hot path's entry (`dist/cli/ENTRY.cjs` in `dir`) and return its exports. */
export function loadEntry(dir: string, entry: Exclude<FastEntry, 'statusline'>): { start: () => Promise<void> } {
  const file = join(dir, `${entry}.cjs`);
  const uid = process.getuid?.();
  const cache = codeCacheDir(process.env, tmpdir(), `${process.version}-${process.arch}`, uid);
  const key = typeof __MEMCTX_ENTRY_HASHES__ === 'object' ? __MEMCTX_ENTRY_HASHES__[entry] : undefined;
  const enable = (nodeModule as { enableCompileCache?: (dir?: string) => unknown }).enableCompileCache;
  if (cache === undefined || key === undefined || enable) {
    if (cache !== undefined && enable) enable(cache);
    return nodeModule.createRequire(file)(file) as { start: () => Promise<void> };
  }
  const loaded = loadScript(file, key, cache, uid);
  if (loaded.save) {
    process.once('exit', loaded.save);
    setTimeout(loaded.save, SAVE_AFTER_MS).unref();
  }
  return loaded.exports as { start: () => Promise<void> };
}
