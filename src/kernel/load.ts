/**
 * Loading one of memctx's own modules at a command boundary. Where Node can `require` an ES module
 * (Node >= 20.19 and >= 22.12) the module and its imports are read synchronously; through `import()`,
 * Node 20 reads each file on its thread pool (the status line: 558 of its 1,614 system calls were
 * futex waits, 83 of 979 now; about 4 ms of CPU). Elsewhere, and under a test runner that loads the
 * TypeScript sources, it is an `import()`: the module and its exports are the same either way.
 */
const { createRequire } = process.getBuiltinModule('node:module');

/** The errors that mean "this Node cannot require it": load it through `import()` instead. */
const NOT_REQUIRABLE = new Set(['ERR_REQUIRE_ESM', 'ERR_REQUIRE_ASYNC_MODULE', 'MODULE_NOT_FOUND']);

/**
 * The module at `specifier`, resolved from the module whose URL is `parent` (its `import.meta.url`);
 * `load` is the caller's own `import()` of the same specifier, for where Node cannot require it.
 */
export async function loadModule<M>(specifier: string, parent: string, load: () => Promise<M>): Promise<M> {
  try {
    return createRequire(parent)(specifier) as M;
  } catch (err) {
    if (!NOT_REQUIRABLE.has((err as { code?: string }).code ?? '')) throw err;
    return load();
  }
}
