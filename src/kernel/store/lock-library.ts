/**
 * proper-lockfile, loaded on the first lock with a plain `require` (an ES module import of a CommonJS
 * package makes Node parse it for its export names) and without loading graceful-fs until proper-lockfile
 * touches it. Every file of proper-lockfile requires graceful-fs, which clones and patches node:fs (about
 * 15-20 M instructions of a hook), but proper-lockfile uses it only as the default of its `fs` option, and
 * memctx always passes its own (write.ts LOCK_FS). So while proper-lockfile loads, the module cache holds
 * a stand-in for graceful-fs that loads the real one on first use: a caller that leaves `fs` out gets
 * graceful-fs as before. The stand-in leaves the cache once proper-lockfile is loaded, so any other
 * `require('graceful-fs')` gets the real module.
 */
import { createRequire, Module } from 'node:module';
import type * as ProperLockfile from 'proper-lockfile';

type Lockfile = typeof ProperLockfile;

const requireHere = createRequire(import.meta.url);

/** A module's exports that load `path` on first use and answer for it from then on. */
function deferredExports(load: () => object): object {
  const stand = {};
  const keep = (key: PropertyKey, found: PropertyDescriptor | undefined) => {
    // A proxy may report a property that cannot be reconfigured only when its target holds it too.
    if (found && !found.configurable && !Reflect.getOwnPropertyDescriptor(stand, key)) Reflect.defineProperty(stand, key, found);
    return found;
  };
  return new Proxy(stand, {
    get: (_stand, key): unknown => Reflect.get(load(), key),
    set: (_stand, key, value) => Reflect.set(load(), key, value),
    has: (_stand, key) => Reflect.has(load(), key),
    ownKeys: () => Reflect.ownKeys(load()),
    getOwnPropertyDescriptor: (_stand, key) => keep(key, Reflect.getOwnPropertyDescriptor(load(), key)),
    defineProperty: (_stand, key, descriptor) => Reflect.defineProperty(load(), key, descriptor) && (keep(key, Reflect.getOwnPropertyDescriptor(load(), key)), true),
    deleteProperty: (_stand, key) => Reflect.deleteProperty(load(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(load()),
  });
}

let loaded: Lockfile | undefined;

/** proper-lockfile's exports (the same object as `import lockfile from 'proper-lockfile'` gives). */
export function properLockfile(): Lockfile {
  if (loaded) return loaded;
  const main = requireHere.resolve('proper-lockfile');
  const cache = requireHere.cache;
  if (cache[main]) return (loaded = requireHere(main) as Lockfile);
  const graceful = createRequire(main).resolve('graceful-fs');
  let stand: NodeJS.Module | undefined;
  let exports: object | undefined;
  const real = () => {
    if (stand && cache[graceful] === stand) delete cache[graceful];
    return (exports ??= requireHere(graceful) as object);
  };
  if (!cache[graceful]) {
    stand = new Module(graceful);
    stand.filename = graceful;
    stand.loaded = true;
    stand.exports = deferredExports(real);
    cache[graceful] = stand;
  }
  try {
    loaded = requireHere(main) as Lockfile;
  } finally {
    if (stand && cache[graceful] === stand) delete cache[graceful];
  }
  return loaded;
}
