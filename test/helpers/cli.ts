import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stateDir } from '../../src/kernel/state/folder.js';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = join(REPO, 'bin/memctx.js');
export const FIXTURES = join(REPO, 'fixtures');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run the built bin (npm test builds first) with a clean, colourless environment. */
export function memctx(args: string[], options: { cwd: string; input?: string; env?: Record<string, string | undefined> } & Pick<SpawnSyncOptions, 'timeout'>): CliResult {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', MEMCTX_DIR: undefined, FORCE_COLOR: undefined, ...options.env };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd: options.cwd,
    input: options.input ?? '',
    env: env as NodeJS.ProcessEnv,
    encoding: 'utf8',
    timeout: options.timeout ?? 20_000,
  });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

const made = new Set<string>();

/** A fresh temporary directory, removed after the test file by removeTempDirs (test/helpers/setup.ts). */
export function tempDir(prefix = 'memctx-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.add(dir);
  return dir;
}

/** Remove every directory tempDir made in this test file. */
export function removeTempDirs(): void {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
  made.clear();
}

/** Copy a fixture directory into a fresh temporary directory and return the copy's path. */
/** A copy of a fixture, without the `.memctx/` caches a manual run may have left in it (git ignores them; a clean clone has none). */
export function copyFixture(name: string, into = tempDir()): string {
  const target = join(into, name.split('/').pop()!);
  cpSync(join(FIXTURES, name), target, { recursive: true, filter: (source) => basename(source) !== '.memctx' });
  return target;
}

export function removeDir(path: string): void {
  rmSync(path, { recursive: true, force: true });
}

/** The state folder (caches, lock, log, pending summaries) of a memory directory, made when missing. */
export function stateOf(memoryRoot: string): string {
  const dir = stateDir(memoryRoot, { always: true });
  if (dir === undefined) throw new Error(`no state folder for ${memoryRoot}`);
  return dir;
}
