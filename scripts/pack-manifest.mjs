// `npm pack` and `npm publish` (prepack / postpack): the tarball's package.json without `prepare`.
// prepare builds only a git install (scripts/prepare.mjs, not shipped); in a tarball it would never
// run, yet npm 11 lists it at every install as an install script "not yet covered by allowScripts".
// `strip` keeps the checkout's package.json byte for byte in package.json.prepack; `restore` puts it back.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const KEPT = 'package.json.prepack';
const step = process.argv[2];

if (step === 'strip') {
  // A pack stopped before postpack left the original in KEPT: that one is the checkout's.
  if (existsSync(KEPT)) renameSync(KEPT, 'package.json');
  const text = readFileSync('package.json', 'utf8');
  const pkg = JSON.parse(text);
  writeFileSync(KEPT, text);
  delete pkg.scripts.prepare;
  writeFileSync('package.json', `${JSON.stringify(pkg, null, 2)}\n`);
} else if (step === 'restore') {
  if (existsSync(KEPT)) renameSync(KEPT, 'package.json');
} else {
  console.error('usage: node scripts/pack-manifest.mjs strip|restore');
  process.exit(2);
}
