/**
 * The packed tarball as `npm pack` makes it (prepack and postpack included), from a copy of the
 * shipped files of this checkout's build: the copy's build step is a no-op, so it takes seconds.
 * Run `npm run build` first. `manifestOnly` packs the package.json and its pack steps without the
 * shipped folders: a test of the manifest alone skips compressing 10 MB (~3 s of npm's CPU).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { REPO } from './cli.js';

export function packTarball(dest: string, options: { manifestOnly?: boolean } = {}): { tarball: string; copy: string } {
  const copy = join(dest, 'memctx-copy');
  const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { files: string[]; scripts: Record<string, string> };
  for (const file of [...(options.manifestOnly ? [] : pkg.files), 'package.json', '.npmrc', 'scripts/pack-manifest.mjs']) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(REPO, file), join(copy, file), { recursive: true });
  }
  writeFileSync(join(copy, 'package.json'), readFileSync(join(REPO, 'package.json'), 'utf8').replace(`"build": ${JSON.stringify(pkg.scripts.build)}`, '"build": "node -e 0"'));
  const packed = spawnSync('npm', ['pack', '--json', '--pack-destination', dest], { cwd: copy, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });
  if (packed.status !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
  return { tarball: join(dest, (JSON.parse(packed.stdout) as Array<{ filename: string }>)[0].filename), copy };
}
