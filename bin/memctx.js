#!/usr/bin/env node
'use strict';
// Launcher only: turn on Node's compile cache where Node has one (kernel/cli/compile-cache.ts), then run
// main() from tsc's build in dist/src/. It is CommonJS and requires that build where Node can require an
// ES module (>= 20.19, >= 22.12), as kernel/load.ts does for main's hot paths (which it cannot call before
// the build is loaded); a missing build is an error here, not a reason to import.
const load = (path) => {
  try {
    return Promise.resolve(require(path));
  } catch (err) {
    if (err.code !== 'ERR_REQUIRE_ESM' && err.code !== 'ERR_REQUIRE_ASYNC_MODULE') throw err;
    return import(path);
  }
};

(async () => {
  if (typeof require('node:module').enableCompileCache === 'function') (await load('../dist/src/kernel/cli/compile-cache.js')).enableCompileCache();
  const { main } = await load('../dist/src/main.js');
  process.exitCode = await main(process.argv);
})();
