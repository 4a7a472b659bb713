#!/usr/bin/env node
// Launcher only: all behaviour lives in dist/src/cli/main.js.
import { main } from '../dist/src/cli/main.js';

main(process.argv).then((code) => {
  process.exitCode = code;
});
