/**
 * proper-lockfile, loaded on the first lock with a plain `require` (an ES module import of a CommonJS
 * package makes Node parse it for its export names), without loading two modules it requires but this
 * path never uses (together about 35 M instructions of the flush hook):
 * - graceful-fs, which clones and patches node:fs: proper-lockfile uses it only as the default of its
 *   `fs` option, and memctx always passes its own (write.ts LOCK_FS);
 * - node:assert, which signal-exit requires for one check, `assert.equal(typeof cb, 'function', …)`.
 * While proper-lockfile loads, the module cache holds a stand-in for each (a name in require.cache is
 * found before a built-in module of that name, as Node documents) that loads the real module on first
 * use and answers for it from then on; the stand-in's `equal` lets an equal pair pass, as assert.equal
 * does, and hands any other to the real one. A caller that leaves `fs` out gets graceful-fs as before.
 * The stand-ins leave the cache once proper-lockfile is loaded: any later require gets the real module.
 */
import { createRequire, Module } from 'node:module';
import type * as ProperLockfile from 'proper-lockfile';

type Lockfile = typeof ProperLockfile;

const requireHere = createRequire(import.meta.url);

/** A module's exports that load the real ones on first use (`own` answered first) and answer for them from then on. */
function deferredExports(load: () => object, own: Record<string, unknown> = {}): object {
  const stand = {};
  const keep = (key: PropertyKey, found: PropertyDescriptor | undefined) => {
    // A proxy may report a property that cannot be reconfigured only when its target holds it too.
    if (found && !found.configurable && !Reflect.getOwnPropertyDescriptor(stand, key)) Reflect.defineProperty(stand, key, found);
    return found;
  };
  return new Proxy(stand, {
    get: (_stand, key): unknown => (typeof key === 'string' && Object.hasOwn(own, key) ? own[key] : Reflect.get(load(), key)),
    set: (_stand, key, value) => Reflect.set(load(), key, value),
    has: (_stand, key) => Reflect.has(load(), key),
    ownKeys: () => Reflect.ownKeys(load()),
    getOwnPropertyDescriptor: (_stand, key) => keep(key, Reflect.getOwnPropertyDescriptor(load(), key)),
    defineProperty: (_stand, key, descriptor) => Reflect.defineProperty(load(), key, descriptor) && (keep(key, Reflect.getOwnPropertyDescriptor(load(), key)), true),
    deleteProperty: (_stand, key) => Reflect.deleteProperty(load(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(load()),
  });
}

/** A module-cache entry under `key` whose exports load the real module (`load`) on first use. */
function standIn(key: string, load: () => object, own?: Record<string, unknown>): NodeJS.Module {
  const stand = new Module(key);
  stand.filename = key;
  stand.loaded = true;
  stand.exports = deferredExports(load, own);
  return stand;
}

/** node:assert's `equal` for a pair that is strictly equal (which assert.equal passes); any other pair goes to the real one. */
function passEqual(assert: () => { equal: (...args: unknown[]) => void }) {
  return (actual: unknown, expected: unknown, ...rest: unknown[]) => {
    if (actual === expected) return;
    assert().equal(actual, expected, ...rest);
  };
}

let loaded: Lockfile | undefined;

/** proper-lockfile's exports (the same object as `import lockfile from 'proper-lockfile'` gives). */
export function properLockfile(): Lockfile {
  if (loaded) return loaded;
  const main = requireHere.resolve('proper-lockfile');
  const cache = requireHere.cache;
  if (cache[main]) return (loaded = requireHere(main) as Lockfile);
  const graceful = createRequire(main).resolve('graceful-fs');
  const stands = new Map<string, NodeJS.Module>();
  const leave = (key: string) => {
    if (cache[key] !== undefined && cache[key] === stands.get(key)) delete cache[key];
  };
  let gracefulFs: object | undefined;
  let assert: { equal: (...args: unknown[]) => void } | undefined;
  const realGracefulFs = () => {
    leave(graceful);
    return (gracefulFs ??= requireHere(graceful) as object);
  };
  const realAssert = () => (assert ??= requireHere('node:assert') as typeof assert & object);
  if (!cache[graceful]) stands.set(graceful, standIn(graceful, realGracefulFs));
  if (!cache.assert) stands.set('assert', standIn('assert', realAssert, { equal: passEqual(realAssert) }));
  for (const [key, stand] of stands) cache[key] = stand;
  try {
    loaded = requireHere(main) as Lockfile;
  } finally {
    for (const key of stands.keys()) leave(key);
  }
  return loaded;
}
