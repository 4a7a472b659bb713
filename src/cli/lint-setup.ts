import { realpathSync } from 'node:fs';
import { dirname } from 'node:path';
import { loadConfig, unknownKeyWarnings } from '../store/config.js';
import { EXIT_USAGE, MemctxError } from '../store/errors.js';
import { findRepository, relativeInside } from '../store/repo.js';
import { ConfigError, resolveLintConfig } from '../lint/config.js';
import { RULES } from '../lint/rules/index.js';
import type { LintConfig } from '../lint/types.js';
import type { Context } from './context.js';

export interface LintSetup {
  /** The memory directory, resolved through symlinks. */
  root: string;
  repo: { root: string; git: boolean };
  /** The memory directory relative to the repository root, or undefined when outside it. */
  memoryPrefix?: string;
  config: LintConfig;
  configPath?: string;
}

/**
 * Find the memory directory, the repository around it (the git top level, else the memory
 * directory's parent; with --claude, the working directory's repository) and the configuration.
 * Configuration warnings go to stderr; an invalid value is a usage error naming the key.
 */
export function loadLintSetup(ctx: Context): LintSetup {
  const root = realpathSync(ctx.memoryDir());
  const from = ctx.globals.claude ? ctx.io.cwd : root;
  const repo = findRepository(from, ctx.globals.claude ? ctx.io.cwd : dirname(root), ctx.io.env);
  const loaded = loadConfig(repo.root, root);
  for (const warning of [...loaded.warnings, ...unknownKeyWarnings(loaded.data, loaded.path)]) ctx.ui.warn(warning);
  let resolved;
  try {
    resolved = resolveLintConfig(loaded.data, RULES);
  } catch (err) {
    if (err instanceof ConfigError) {
      throw new MemctxError(`invalid configuration: ${err.message}`, { file: loaded.path, exitCode: EXIT_USAGE, hint: `fix "${err.key}": rule settings are "off", "warn" or "error", thresholds are numbers, "types" is a list of names` });
    }
    throw err;
  }
  for (const warning of resolved.warnings) ctx.ui.warn(`${loaded.path ?? 'configuration'}: ${warning}`);
  return { root, repo, memoryPrefix: relativeInside(realpathSync(repo.root), root), config: resolved.config, configPath: loaded.path };
}
