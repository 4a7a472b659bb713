#!/usr/bin/env node
// Launcher only: the bundled CLI (dist/cli/, built by scripts/bundle.mjs) holds all behaviour. The
// command lines run on every message, session or commit have their own entries, loaded by route.cjs
// with V8's code cache, and pack and search their own bundle of main() (route.cjs says which);
// this file is CommonJS (bin/package.json) so that the hot paths start without the ES module loader.
'use strict';

const argv = process.argv;
// The status line as `init --agent` writes it, without even loading the router.
if (argv.length === 4 && argv[2] === 'status' && argv[3] === '--statusline') require('../dist/cli/statusline.cjs');
else {
  const router = require('../dist/cli/route.cjs');
  const route = router.fastRoute(argv);
  if (route && route.entry === 'statusline') require('../dist/cli/statusline.cjs');
  else if (route) router.loadEntry(require('node:path').join(__dirname, '../dist/cli'), route.entry).start();
  else {
    router.enableCompileCache();
    import(`../dist/cli/${router.mainEntry(argv)}.js`).then(({ main }) =>
      main(argv).then((code) => {
        process.exitCode = code;
      }),
    );
  }
}
