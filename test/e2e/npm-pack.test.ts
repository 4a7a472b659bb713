/**
 * The tarball a user installs (issue 34, item 6): no install script, so npm 11 has nothing to warn
 * about ("install scripts not yet covered by allowScripts"); `prepare` (the build of a git install)
 * stays in the checkout's package.json, which pack leaves byte for byte as it was.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, tempDir } from '../helpers/cli.js';
import { packTarball } from '../helpers/pack.js';

describe('npm pack', () => {
  // The manifest and its pack steps only: npm still starts three times (pack, prepack's `npm run build`),
  // under a second of CPU; packing the 10 MB of shipped files too took ~4 s of CPU and 10-15 s of wall at load 8.
  it("ships a package.json without prepare or any other install script; the checkout's is kept", () => {
    const dest = tempDir();
    const { tarball, copy } = packTarball(dest, { manifestOnly: true });
    const before = readFileSync(join(REPO, 'package.json'), 'utf8').replace(/"build": "[^"]*"/, '"build": "node -e 0"');
    expect(readFileSync(join(copy, 'package.json'), 'utf8')).toBe(before);
    expect(existsSync(join(copy, 'package.json.prepack'))).toBe(false);
    const shipped = JSON.parse(spawnSync('tar', ['-xOzf', tarball, 'package/package.json'], { encoding: 'utf8' }).stdout) as { scripts: Record<string, string> };
    expect(Object.keys(shipped.scripts).filter((s) => /^(pre|post)?install$|^prepare$/.test(s))).toEqual([]);
    expect(JSON.parse(before).scripts.prepare).toBe('node scripts/prepare.mjs');
  }, 60_000);

  it('a pack stopped before postpack is put right by the next one', () => {
    // The manifest step alone (no npm pack: it takes seconds on a loaded machine).
    const copy = tempDir();
    mkdirSync(join(copy, 'scripts'));
    copyFileSync(join(REPO, 'scripts', 'pack-manifest.mjs'), join(copy, 'scripts', 'pack-manifest.mjs'));
    copyFileSync(join(REPO, 'package.json'), join(copy, 'package.json'));
    const original = readFileSync(join(copy, 'package.json'), 'utf8');
    expect(spawnSync(process.execPath, ['scripts/pack-manifest.mjs', 'strip'], { cwd: copy }).status).toBe(0);
    expect(JSON.parse(readFileSync(join(copy, 'package.json'), 'utf8')).scripts.prepare).toBeUndefined();
    expect(spawnSync(process.execPath, ['scripts/pack-manifest.mjs', 'strip'], { cwd: copy }).status).toBe(0);
    expect(spawnSync(process.execPath, ['scripts/pack-manifest.mjs', 'restore'], { cwd: copy }).status).toBe(0);
    expect(readFileSync(join(copy, 'package.json'), 'utf8')).toBe(original);
  });
});
