#!/usr/bin/env node
// Launcher only: turn on Node's compile cache where Node has one (kernel/cli/compile-cache.ts), then run
// main() from tsc's build in dist/src/.
import * as nodeModule from 'node:module';

if (typeof nodeModule.enableCompileCache === 'function') (await import('../dist/src/kernel/cli/compile-cache.js')).enableCompileCache();
const { main } = await import('../dist/src/main.js');
process.exitCode = await main(process.argv);
