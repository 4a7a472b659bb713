import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BIN, type CliResult } from './cli.js';

export const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

/** Run the built bin without waiting (for concurrent runs). */
export function memctxAsync(args: string[], options: { cwd: string; env?: Record<string, string | undefined> }): Promise<CliResult> {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', MEMCTX_DIR: undefined, FORCE_COLOR: undefined, ...options.env };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd, env: env as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** Every file under dir (relative path → bytes and mtime), for before/after comparisons; `.memctx/` is a cache and left out. */
export function snapshot(dir: string): Record<string, { bytes: string; mtimeMs: number }> {
  const out: Record<string, { bytes: string; mtimeMs: number }> = {};
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const abs = join(at, entry.name);
      if (entry.isDirectory() && entry.name === '.memctx') continue;
      if (entry.isDirectory()) walk(abs);
      else if (entry.isFile()) out[relative(dir, abs)] = { bytes: readFileSync(abs).toString('base64'), mtimeMs: statSync(abs).mtimeMs };
    }
  };
  walk(dir);
  return out;
}

export function read(path: string): string {
  return readFileSync(path, 'utf8');
}
