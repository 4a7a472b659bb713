/**
 * bin/memctx.js's helper, built into dist/cli/route.cjs: which entry a command line takes (route.ts),
 * and a hot path's CommonJS entry, loaded with Node's own compile cache where Node has one (>= 22.1,
 * `module.enableCompileCache`), kept in a private per-user folder (store/state.ts `userCacheDir`), never
 * in a shared temporary folder. Node checks its cache entries itself and recompiles a damaged one.
 * `MEMCTX_DISABLE_COMPILE_CACHE` (or Node's `NODE_DISABLE_COMPILE_CACHE`) turns it off.
 */
import * as nodeModule from 'node:module';
import { join } from 'node:path';
import { userCacheDir } from '../kernel/state/folder.js';
import type { FastEntry } from './route.js';

export { fastRoute, mainEntry } from './route.js';

/** Turn on Node's compile cache in memctx's per-user folder, where Node has one; never an error. */
export function enableCompileCache(env: NodeJS.ProcessEnv = process.env): void {
  const enable = (nodeModule as { enableCompileCache?: (dir?: string) => unknown }).enableCompileCache;
  if (!enable || env.MEMCTX_DISABLE_COMPILE_CACHE || env.NODE_DISABLE_COMPILE_CACHE) return;
  const dir = userCacheDir('compile-cache', env);
  if (dir === undefined) return;
  try {
    enable(dir);
  } catch {
    // runs without the cache
  }
}

/** Load a hot path's entry (`dist/cli/ENTRY.cjs` in `dir`) and return its exports. */
export function loadEntry(dir: string, entry: Exclude<FastEntry, 'statusline'>): { start: () => Promise<void> } {
  const file = join(dir, `${entry}.cjs`);
  enableCompileCache();
  return nodeModule.createRequire(file)(file) as { start: () => Promise<void> };
}
