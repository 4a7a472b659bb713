#!/usr/bin/env node
// Launcher only: the bundled CLI (dist/cli/, built by scripts/bundle.mjs) holds all behaviour. The
// command lines run on every message, session or commit have their own entries, and pack and search their
// own bundle of main() (route.cjs says which);
// this file is CommonJS (bin/package.json) so that the status line starts without the ES module loader.
'use strict';

const argv = process.argv;
// The status line as `init --agent` writes it, without even loading the router.
const statusline = argv.length === 4 && argv[2] === 'status' && argv[3] === '--statusline';
const router = statusline ? undefined : require('../dist/cli/route.cjs');
const route = statusline ? { entry: 'statusline' } : router.fastRoute(argv);
if (route && route.entry === 'statusline') require('../dist/cli/statusline.cjs');
else if (route) import(`../dist/cli/${route.entry}.js`).then((entry) => entry.start());
else {
  import(`../dist/cli/${router.mainEntry(argv)}.js`).then(({ main }) =>
    main(argv).then((code) => {
      process.exitCode = code;
    }),
  );
}
