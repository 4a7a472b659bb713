import { dirname, join } from 'node:path';
import { EXIT_USAGE, MemctxError } from '../errors.js';
import { lineAt } from '../lines.js';
import { readRegularFile } from '../store/read-file.js';
const { existsSync } = process.getBuiltinModule('node:fs');

/** The configuration file at the repository root, and its alternative inside the memory directory. */
export const CONFIG_FILE = 'memctx.config.json';
export const MEMORY_CONFIG_FILE = 'config.json';

export interface LoadedConfig {
  /** The file read, absolute; undefined when there is none (defaults apply). */
  path?: string;
  /** The parsed JSON object; each command validates the keys it uses. */
  data: Record<string, unknown>;
  warnings: string[];
}

function lineOfPosition(text: string, message: string): number | undefined {
  const line = /\(line (\d+) column \d+\)/.exec(message);
  if (line) return Number(line[1]);
  const position = /at position (\d+)/.exec(message);
  return position ? text.slice(0, Number(position[1])).split('\n').length : undefined;
}

/** Parse one configuration file; an error naming the file and line when it is not a JSON object. */
export function readConfigFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readRegularFile(path, { maxBytes: 1024 * 1024, what: 'configuration file' }).toString('utf8');
  } catch (err) {
    throw new MemctxError(`cannot read the configuration file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, { file: path, exitCode: EXIT_USAGE, hint: 'check its permissions' });
  }
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    const message = (err as Error).message;
    throw new MemctxError(`invalid JSON: ${message}`, { file: path, line: lineOfPosition(text, message), exitCode: EXIT_USAGE, hint: 'fix the JSON syntax (no comments or trailing commas)' });
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new MemctxError('the configuration must be a JSON object', { file: path, line: 1, exitCode: EXIT_USAGE, hint: 'write it as { "rules": { … }, "thresholds": { … } }' });
  }
  return data as Record<string, unknown>;
}

/**
 * The line of a key in a configuration file, for an error about its value: each part of the dotted
 * key is looked for after the one before (`thresholds`, then `maxTokens`). Undefined when not found.
 */
export function configKeyLine(path: string, key: string): number | undefined {
  let text: string;
  try {
    text = readRegularFile(path, { maxBytes: 1024 * 1024, what: 'configuration file' }).toString('utf8');
  } catch {
    return undefined;
  }
  let at = 0;
  for (const part of key.split('.').filter(Boolean)) {
    const found = text.indexOf(`${JSON.stringify(part)}`, at);
    if (found === -1) return undefined;
    at = found;
  }
  return key === '' ? undefined : lineAt(text, at);
}

/**
 * The configuration: `memctx.config.json` at the repository root, else `.memory/config.json`.
 * When both exist the repository one is used and a warning says so.
 */
export function loadConfig(repoRoot: string | undefined, memoryDir: string): LoadedConfig {
  const candidates = [repoRoot ? join(repoRoot, CONFIG_FILE) : undefined, join(memoryDir, MEMORY_CONFIG_FILE)].filter(
    (p, i, all): p is string => p !== undefined && all.indexOf(p) === i && existsSync(p),
  );
  if (candidates.length === 0) return { data: {}, warnings: [] };
  const warnings = candidates.length > 1 ? [`both ${candidates[0]} and ${candidates[1]} exist; using ${candidates[0]} and ignoring the other`] : [];
  return { path: candidates[0], data: readConfigFile(candidates[0]), warnings };
}

/** The folder holding the repository around the memory directory: the nearest ancestor with a .git entry. */
function repositoryRoot(memoryDir: string): string | undefined {
  for (let dir = dirname(memoryDir); ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The index size limits from the configuration (`thresholds.indexMaxLines` / `indexMaxBytes`), so
 * the generator, `index --check` and lint's rules agree. Values that are not positive whole numbers
 * are left to lint to report; a configuration that cannot be read gives the defaults.
 */
export function indexLimits(memoryDir: string): { maxLines?: number; maxBytes?: number } {
  let data: Record<string, unknown>;
  try {
    data = loadConfig(repositoryRoot(memoryDir), memoryDir).data;
  } catch {
    return {};
  }
  const t = data.thresholds;
  if (t === null || typeof t !== 'object' || Array.isArray(t)) return {};
  const pick = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined);
  return { maxLines: pick((t as Record<string, unknown>).indexMaxLines), maxBytes: pick((t as Record<string, unknown>).indexMaxBytes) };
}

/**
 * The context percentages at which the agent is asked to save its session summary (`flush.askAt`,
 * checked by `check`: schemas/config.ts `parseAskAt`). Undefined when not set; a problem when it is
 * set wrong or the configuration cannot be read (the caller keeps the default).
 */
export function askThresholds(memoryDir: string, check: (value: unknown) => { thresholds: number[] } | { problem: string }): { thresholds?: number[]; problem?: string } {
  let loaded: LoadedConfig;
  try {
    loaded = loadConfig(repositoryRoot(memoryDir), memoryDir);
  } catch (err) {
    return { problem: (err as Error).message };
  }
  const flush = loaded.data.flush;
  if (flush === undefined) return {};
  const value = flush !== null && typeof flush === 'object' && !Array.isArray(flush) ? (flush as Record<string, unknown>).askAt : undefined;
  if (value === undefined) return {};
  const checked = check(value);
  return 'problem' in checked ? { problem: `${loaded.path}: "flush.askAt" ${checked.problem}, got ${JSON.stringify(value)}` } : checked;
}
