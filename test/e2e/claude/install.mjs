#!/usr/bin/env node
// Installs the Claude Code platform binary for the end-to-end scenarios into a cache outside the
// repository (never a package.json dependency: it is about 370 MB). npm here runs no install scripts,
// so the platform package's own `claude` binary is used directly.
// Run: node test/e2e/claude/install.mjs → prints the binary's path, or one line saying why it cannot.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The Claude Code version these scenarios are pinned to (MEMCTX_CLAUDE_VERSION overrides it). */
export const CLAUDE_VERSION = process.env.MEMCTX_CLAUDE_VERSION || '2.1.330';
export const PLATFORM_PACKAGE = '@anthropic-ai/claude-code-linux-x64';

export function cacheDir(version = CLAUDE_VERSION) {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'memctx-claude-e2e', version);
}

/** { bin, version } when the binary is there (installing it if needed), else { error } in one line. */
export function ensureClaude(version = CLAUDE_VERSION) {
  if (process.platform !== 'linux' || process.arch !== 'x64') return { error: `needs linux-x64, this is ${process.platform}-${process.arch}` };
  const dir = cacheDir(version);
  const bin = join(dir, 'node_modules', ...PLATFORM_PACKAGE.split('/'), 'claude');
  if (!existsSync(bin)) {
    try {
      // The platform package must be the one @anthropic-ai/claude-code of this version depends on.
      const deps = JSON.parse(npm(['view', `@anthropic-ai/claude-code@${version}`, 'optionalDependencies', '--json', '--fetch-retries=1', '--fetch-retry-mintimeout=2000', '--fetch-retry-maxtimeout=4000'], dir) || '{}');
      if (deps[PLATFORM_PACKAGE] !== version) return { error: `@anthropic-ai/claude-code@${version} does not depend on ${PLATFORM_PACKAGE}@${version} (it names ${deps[PLATFORM_PACKAGE] ?? 'none'})` };
      mkdirSync(dir, { recursive: true });
      npm(['install', '--no-save', '--no-audit', '--no-fund', '--no-package-lock', '--prefix', dir, `${PLATFORM_PACKAGE}@${version}`], dir);
    } catch (error) {
      const text = String(error?.stderr || error?.message || error).split('\n').find((line) => /ERR!|error/i.test(line)) ?? String(error);
      return { error: `npm could not fetch ${PLATFORM_PACKAGE}@${version}: ${text.trim()}` };
    }
  }
  try {
    const printed = execFileSync(bin, ['--version'], { encoding: 'utf8', timeout: 30_000, env: { PATH: process.env.PATH, HOME: dir } }).trim();
    if (!printed.startsWith(version)) return { error: `${bin} --version printed "${printed}", expected ${version}` };
    return { bin, version };
  } catch (error) {
    return { error: `${bin} --version failed: ${String(error?.message || error).split('\n')[0]}` };
  }
}

function npm(args, cwd) {
  mkdirSync(cwd, { recursive: true });
  return execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 600_000 });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = ensureClaude();
  if (result.error) {
    console.log(`Claude Code ${CLAUDE_VERSION} unavailable: ${result.error}`);
    process.exitCode = 1;
  } else console.log(`Claude Code ${result.version}: ${result.bin}`);
}
