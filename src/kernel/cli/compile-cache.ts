/**
 * Node's own compile cache (Node >= 22.1, `module.enableCompileCache`), kept in a private per-user folder
 * (kernel/state/folder.ts `userCacheDir`: the user's own, not a link, not writable by others), never in a
 * shared temporary folder; one folder per memctx version and install, so two installs never share
 * entries. Node checks its entries itself and recompiles a damaged one. `MEMCTX_DISABLE_COMPILE_CACHE`
 * (or Node's `NODE_DISABLE_COMPILE_CACHE`) turns it off; where Node has none, nothing happens.
 */
import * as nodeModule from 'node:module';
import { userCacheDir } from '../state/folder.js';
import { VERSION } from '../version.js';

/** The cache folder's name for this memctx version and install (the URL of its built code). */
export function compileCacheName(version: string, install: string): string {
  return `compile-cache-${version}-${fnv1a(install).toString(16).padStart(8, '0')}`;
}

/** 32-bit FNV-1a of the text's UTF-16 units: enough to tell installs apart, without node:crypto (60 M instructions to load). */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** Turn on Node's compile cache in memctx's per-user folder, where Node has one; never an error. */
export function enableCompileCache(env: NodeJS.ProcessEnv = process.env, install: string = import.meta.url): void {
  const enable = (nodeModule as { enableCompileCache?: (dir?: string) => unknown }).enableCompileCache;
  if (!enable || env.MEMCTX_DISABLE_COMPILE_CACHE || env.NODE_DISABLE_COMPILE_CACHE) return;
  const dir = userCacheDir(compileCacheName(VERSION, install), env);
  if (dir === undefined) return;
  try {
    enable(dir);
  } catch {
    // runs without the cache
  }
}
