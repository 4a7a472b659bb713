/**
 * Where lint works, found without loading its rules: the memory directory, its repository and the
 * configuration file as read. lintSetup checks the configuration against the rules; lint's command
 * reads the place first to start drift's `git log` before the rules load.
 */
import { realpathSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { loadConfig, readConfigFile, type LoadedConfig } from '../sources/config.js';
import { findRepository } from '../sources/repo.js';
import { isRecord } from '../values.js';

export interface SetupOptions {
  memoryDir: string;
  /** --claude: the repository is the working directory's, not the memory directory's. */
  claude?: boolean;
  /** --config FILE, relative to cwd. */
  configFile?: string;
}

export interface LintPlace {
  /** The memory directory, resolved through symlinks. */
  root: string;
  repo: { root: string; git: boolean };
  /** The configuration file and its data as read, not yet checked. */
  loaded: LoadedConfig;
}

/**
 * The repository around the memory directory (the git top level, else the memory directory's parent;
 * with --claude, the working directory's) and the configuration (--config, else memctx.config.json,
 * else .memory/config.json).
 */
export function lintPlace(options: SetupOptions, deps: { cwd: string; env: Record<string, string | undefined> }): LintPlace {
  const root = realpathSync(options.memoryDir);
  const from = options.claude ? deps.cwd : root;
  const repo = findRepository(from, options.claude ? deps.cwd : dirname(root), deps.env);
  const configPath = options.configFile === undefined ? undefined : resolve(deps.cwd, options.configFile);
  const loaded = configPath ? { path: configPath, data: readConfigFile(configPath), warnings: [] } : loadConfig(repo.root, root);
  return { root, repo, loaded };
}

/** False when the configuration as read sets the rule "off" (every rule is on by default); lintSetup's check has the last word. */
export function ruleOnAsRead(place: LintPlace, id: string): boolean {
  const rules = place.loaded.data.rules;
  return !(isRecord(rules) && rules[id] === 'off');
}
