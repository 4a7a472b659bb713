#!/usr/bin/env node
// Launcher only: the bundled CLI (dist/cli/, built by scripts/bundle.mjs) holds all behaviour. This
// file is CommonJS (bin/package.json) so that the status line, which Claude Code runs after every
// message, starts without Node's ES module loader.
'use strict';

const argv = process.argv;
if (argv.length === 4 && argv[2] === 'status' && argv[3] === '--statusline') {
  require('../dist/cli/statusline.cjs');
} else {
  import('../dist/cli/main.js').then(({ main }) =>
    main(argv).then((code) => {
      process.exitCode = code;
    }),
  );
}
