// npm runs `prepare` after `npm install` in a checkout and when memctx is installed from git, as the
// pre-commit framework does (`npm install -g git+file://CLONE`). A git install needs the build, and
// npm prepares it with the install's `--global` in the environment, so the devDependencies (tsc) land
// in the global prefix instead of the clone: install them into the clone first, then build.
// Nothing happens when dist/ is already built.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (!existsSync('dist/src/main.js')) {
  const npm = process.env.npm_execpath ? [process.execPath, [process.env.npm_execpath]] : ['npm', []];
  const run = (args) => execFileSync(npm[0], [...npm[1], ...args], { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, npm_config_global: 'false' } });
  if (!existsSync('node_modules/typescript/bin/tsc')) run(['install', '--no-save', '--ignore-scripts', '--include=dev', '--no-audit', '--no-fund']);
  run(['run', 'build']);
}
