/** Where lint and the checks at write time find their repository and configuration. */
import { realpathSync } from 'node:fs';
import { configKeyLine } from '../sources/config.js';
import { EXIT_USAGE, MemctxError } from '../errors.js';
import { lintPlace, type LintPlace, type SetupOptions } from './place.js';
import { relativeInside } from '../store/paths.js';
import { ConfigError, resolveLintConfig } from './config.js';
import { RULES } from './rules/index.js';
import type { LintConfig } from './types.js';

export type { SetupOptions } from './place.js';

export interface LintSetup {
  /** The memory directory, resolved through symlinks. */
  root: string;
  repo: { root: string; git: boolean };
  /** The memory directory relative to the repository root, or undefined when outside it. */
  memoryPrefix?: string;
  config: LintConfig;
  configPath?: string;
  /** Configuration warnings (unknown keys, two config files), for the caller to show. */
  warnings: string[];
}

/**
 * Find the repository around the memory directory (the git top level, else the memory directory's
 * parent; with --claude, the working directory's) and the configuration (--config, else
 * memctx.config.json, else .memory/config.json). An invalid value is a usage error naming the key.
 * `place` is lintPlace's answer for these options, when the caller read it first.
 */
export function lintSetup(options: SetupOptions, deps: { cwd: string; env: Record<string, string | undefined> }, place: LintPlace = lintPlace(options, deps)): LintSetup {
  const { root, repo, loaded } = place;
  let resolved;
  try {
    resolved = resolveLintConfig(loaded.data, RULES);
  } catch (err) {
    if (err instanceof ConfigError) {
      const line = loaded.path === undefined ? undefined : configKeyLine(loaded.path, err.key);
      throw new MemctxError(`invalid configuration: ${err.message}`, { file: loaded.path, line, exitCode: EXIT_USAGE, hint: `fix "${err.key}": rule settings are "off", "warn" or "error", thresholds are numbers, "types" is a list of names` });
    }
    throw err;
  }
  const warnings = [...loaded.warnings, ...resolved.warnings.map((w) => `${loaded.path ?? 'configuration'}: ${w}`)];
  return { root, repo, memoryPrefix: relativeInside(realpathSync(repo.root), root), config: resolved.config, configPath: loaded.path, warnings };
}
