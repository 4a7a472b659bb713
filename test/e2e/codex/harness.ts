// Runs the real Codex CLI (the binary install.mjs put in the cache) in a temporary CODEX_HOME and
// project against the scripted Responses stand-in, and returns what it left behind.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, realpathSync, rmSync, writeFileSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runProcess as run } from '../../helpers/process.js';
import { startStandIn, type StandIn, type StandInOptions } from './stand-in.js';
// @ts-expect-error plain JavaScript module shared with .ci/run
import { CODEX_VERSION, ensureCodex } from './install.mjs';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const MEMCTX_BIN = join(REPO, 'bin/memctx.js');

const installed: { bin?: string; version?: string; error?: string } = process.env.MEMCTX_CODEX_UNAVAILABLE ? { error: process.env.MEMCTX_CODEX_UNAVAILABLE } : ensureCodex();
export const codex = installed;
export const codexVersion: string = installed.version ?? CODEX_VERSION;
export const unavailable: string | undefined = installed.error
  ? process.env.MEMCTX_CODEX_UNAVAILABLE || `Codex ${CODEX_VERSION} could not be installed: ${installed.error}`
  : existsSync(join(REPO, 'dist/src/main.js'))
    ? undefined
    : 'memctx is not built (run npm run build)';

export interface World {
  root: string;
  /** CODEX_HOME (and HOME). */
  home: string;
  project: string;
  cleanup(): void;
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

export function makeWorld(): World {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'memctx-codex-')));
  const home = join(root, 'home');
  const project = join(root, 'project');
  const bin = join(root, 'bin');
  for (const dir of [home, project, bin]) mkdirSync(dir, { recursive: true });
  // `memctx` on PATH is the built bin, so the hooks init writes run as written.
  writeFileSync(join(bin, 'memctx'), `#!/bin/sh\nexec ${quote(process.execPath)} ${quote(MEMCTX_BIN)} "$@"\n`, { mode: 0o755 });
  spawnSync('git', ['init', '-q', '-b', 'main', project]);
  return { root, home, project, cleanup: () => rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 }) };
}

/** CODEX_HOME/config.toml: the stand-in as a Responses provider, a catalogue model, the project trusted (unless told not). */
function writeConfig(world: World, url: string, trusted = true): void {
  writeFileSync(
    join(world.home, 'config.toml'),
    [
      'model = "gpt-5.5"',
      'model_provider = "standin"',
      '',
      '[model_providers.standin]',
      'name = "stand-in"',
      `base_url = "${url}"`,
      'wire_api = "responses"',
      '',
      '[tools.update_plan]',
      'enabled = true',
      '',
      ...(trusted ? [`[projects."${world.project}"]`, 'trust_level = "trusted"', ''] : []),
    ].join('\n'),
  );
}

export interface SessionResult {
  code: number;
  stdout: string;
  stderr: string;
  requests: StandIn['requests'];
  /** The rollout this session wrote. */
  rolloutPath?: string;
}

/** One `codex exec PROMPT` against a fresh stand-in. Hooks run without the trust review (automation). */
export async function runCodex(world: World, options: StandInOptions & { prompt: string; timeoutMs?: number; beforeClose?: () => Promise<void> }): Promise<SessionResult> {
  if (!installed.bin) throw new Error(unavailable);
  const standIn = await startStandIn(options);
  writeConfig(world, standIn.url);
  const env = codexEnv(world);
  const args = ['exec', '--dangerously-bypass-hook-trust', '--dangerously-bypass-approvals-and-sandbox', '--skip-git-repo-check', options.prompt];
  try {
    const result = await run(installed.bin, args, world.project, env, options.timeoutMs ?? 90_000);
    // what the session started in the background still reaches the stand-in
    await options.beforeClose?.();
    return { ...result, requests: standIn.requests, rolloutPath: latestRollout(join(world.home, 'sessions')) };
  } finally {
    await standIn.close();
  }
}

function codexEnv(world: World): Record<string, string> {
  return { PATH: `${join(world.root, 'bin')}:${process.env.PATH ?? '/usr/bin:/bin'}`, HOME: world.home, CODEX_HOME: world.home, OPENAI_API_KEY: 'sk-placeholder-memctx-e2e', LANG: 'C.UTF-8', NO_COLOR: '1' };
}

/**
 * Another Codex subcommand (`mcp list`, …) in the project, with the same CODEX_HOME; the provider points
 * at a closed loopback port. `trusted: false` leaves the project untrusted (Codex then ignores its .codex/config.toml).
 */
export async function codexCommand(world: World, args: string[], options: { trusted?: boolean; timeoutMs?: number } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  if (!installed.bin) throw new Error(unavailable);
  writeConfig(world, 'http://127.0.0.1:9/v1', options.trusted ?? true);
  return run(installed.bin, args, world.project, codexEnv(world), options.timeoutMs ?? 60_000);
}

function latestRollout(dir: string): string | undefined {
  if (!existsSync(dir)) return undefined;
  const files: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.jsonl')) files.push(path);
    }
  };
  walk(dir);
  return files.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
}


/** Run memctx (the built bin) as a user would, colourless. */
export function memctx(args: string[], options: { cwd: string; env?: Record<string, string> }): { code: number; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [MEMCTX_BIN, ...args], { cwd: options.cwd, input: '', encoding: 'utf8', env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...options.env }, timeout: 30_000 });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}
