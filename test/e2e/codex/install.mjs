#!/usr/bin/env node
// Installs the Codex CLI for the end-to-end scenarios into a cache outside the repository (never a
// package.json dependency). npm runs no install scripts here, so the platform package's own binary
// is used directly.
// Run: node test/e2e/codex/install.mjs → prints the binary's path, or one line saying why it cannot.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The Codex version these scenarios are pinned to (MEMCTX_CODEX_VERSION overrides it). */
export const CODEX_VERSION = process.env.MEMCTX_CODEX_VERSION || '0.169.0';
const PLATFORM_DIR = ['@openai', 'codex-linux-x64', 'vendor', 'x86_64-unknown-linux-musl', 'bin', 'codex'];

export function cacheDir(version = CODEX_VERSION) {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'memctx-codex-e2e', version);
}

/** { bin, version } when the binary is there (installing it if needed), else { error } in one line. */
export function ensureCodex(version = CODEX_VERSION) {
  if (process.platform !== 'linux' || process.arch !== 'x64') return { error: `needs linux-x64, this is ${process.platform}-${process.arch}` };
  const dir = cacheDir(version);
  const bin = join(dir, 'node_modules', ...PLATFORM_DIR);
  if (!existsSync(bin)) {
    try {
      mkdirSync(dir, { recursive: true });
      execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--no-package-lock', '--prefix', dir, `@openai/codex@${version}`, '--fetch-retries=1'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 600_000 });
    } catch (error) {
      const text = String(error?.stderr || error?.message || error).split('\n').find((line) => /ERR!|error/i.test(line)) ?? String(error);
      return { error: `npm could not fetch @openai/codex@${version}: ${text.trim()}` };
    }
    if (!existsSync(bin)) return { error: `@openai/codex@${version} installed no Linux binary at ${bin}` };
  }
  try {
    const printed = execFileSync(bin, ['--version'], { encoding: 'utf8', timeout: 30_000, env: { PATH: process.env.PATH, HOME: dir, CODEX_HOME: dir } }).trim();
    if (!printed.endsWith(version)) return { error: `${bin} --version printed "${printed}", expected ${version}` };
    return { bin, version };
  } catch (error) {
    return { error: `${bin} --version failed: ${String(error?.message || error).split('\n')[0]}` };
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = ensureCodex();
  if (result.error) {
    console.log(`Codex ${CODEX_VERSION} unavailable: ${result.error}`);
    process.exitCode = 1;
  } else console.log(`Codex ${result.version}: ${result.bin}`);
}
