import { MemctxError } from '../errors.js';
import { DEFAULT_ARCHIVE_THRESHOLDS } from '../lifecycle/archive.js';
import { MEMORY_TYPES } from '../store/schema.js';
import type { LintConfig, LintRule, RuleSetting, Thresholds } from './types.js';
import { CONFIG_KEYS, RULE_SETTINGS, THRESHOLD_SPECS, fitsThreshold } from './schema.js';
import { closestMatch } from '../text/suggest.js';
import { isRecord } from '../values.js';

export const DEFAULT_THRESHOLDS: Thresholds = {
  maxTokens: 2000,
  sessionMaxTokens: 650,
  indexMaxLines: 200,
  indexMaxBytes: 25_000,
  duplicateSimilarity: 0.85,
  ...DEFAULT_ARCHIVE_THRESHOLDS,
};

/** A configuration value of the wrong type or range; `key` is its dotted path. */
export class ConfigError extends MemctxError {
  constructor(readonly key: string, message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

const SETTINGS: readonly RuleSetting[] = RULE_SETTINGS;

const describe = (value: unknown) => (Array.isArray(value) ? 'a list' : value === null ? 'null' : `${typeof value} ${JSON.stringify(value)}`);

/** The known id closest to a mistyped one, for "did you mean": same rule name, or at most 3 edits away. */
function closest(id: string, known: string[]): string | undefined {
  const name = id.slice(id.lastIndexOf('/') + 1);
  const sameName = known.find((k) => k.endsWith(`/${name}`));
  if (sameName) return sameName;
  return closestMatch(id, known, 3);
}

/**
 * Validate the lint keys of a configuration object (`rules`, `thresholds`, `types`; other keys
 * belong to other commands and are left alone). Throws ConfigError naming the key for a wrong
 * type; an unknown rule id or threshold is a warning.
 */
// eslint-disable-next-line complexity -- one type check per config key, each naming the key in its error
export function resolveLintConfig(data: Record<string, unknown>, rules: LintRule[]): { config: LintConfig; warnings: string[] } {
  const warnings: string[] = [];
  for (const key of Object.keys(data)) {
    if ((CONFIG_KEYS as readonly string[]).includes(key)) continue;
    const guess = closest(key, [...CONFIG_KEYS]);
    warnings.push(`unknown key "${key}"; ignored${guess ? ` (did you mean "${guess}"?)` : ` (known: ${CONFIG_KEYS.join(', ')})`}`);
  }
  const known = rules.map((r) => r.id);
  const settings: Record<string, RuleSetting> = Object.fromEntries(rules.map((r) => [r.id, r.defaultSeverity === 'error' ? 'error' : 'warn']));
  if (data.rules !== undefined) {
    if (!isRecord(data.rules)) throw new ConfigError('rules', `"rules" must be an object of rule id to "off", "warn" or "error" (got ${describe(data.rules)})`);
    for (const [id, value] of Object.entries(data.rules)) {
      if (typeof value !== 'string' || !SETTINGS.includes(value as RuleSetting)) {
        throw new ConfigError(`rules.${id}`, `"rules.${id}" must be "off", "warn" or "error" (got ${describe(value)})`);
      }
      if (!known.includes(id)) {
        const guess = closest(id, known);
        warnings.push(`unknown rule "${id}" in "rules"; ignored${guess ? ` (did you mean "${guess}"?)` : ''}`);
        continue;
      }
      settings[id] = value as RuleSetting;
    }
  }
  const thresholds: Thresholds = { ...DEFAULT_THRESHOLDS };
  if (data.thresholds !== undefined) {
    if (!isRecord(data.thresholds)) throw new ConfigError('thresholds', `"thresholds" must be an object (got ${describe(data.thresholds)})`);
    for (const [key, value] of Object.entries(data.thresholds)) {
      const spec = Object.hasOwn(THRESHOLD_SPECS, key) ? THRESHOLD_SPECS[key as keyof Thresholds] : undefined;
      if (!spec) {
        warnings.push(`unknown threshold "${key}" in "thresholds"; ignored (known: ${Object.keys(DEFAULT_THRESHOLDS).join(', ')})`);
        continue;
      }
      if (!fitsThreshold(spec, value)) throw new ConfigError(`thresholds.${key}`, `"thresholds.${key}" must be ${spec.says} (got ${describe(value)})`);
      thresholds[key as keyof Thresholds] = value;
    }
  }
  let types: string[] = [...MEMORY_TYPES];
  if (data.types !== undefined) {
    if (!Array.isArray(data.types) || data.types.length === 0 || !data.types.every((t) => typeof t === 'string' && t.trim() !== '')) {
      throw new ConfigError('types', `"types" must be a non-empty list of type names (got ${describe(data.types)})`);
    }
    types = data.types.map((t: string) => t.trim().toLowerCase());
  }
  return { config: { rules: settings, thresholds, types }, warnings };
}

/** The default configuration, as `resolveLintConfig({})` gives it. */
export function defaultLintConfig(rules: LintRule[]): LintConfig {
  return resolveLintConfig({}, rules).config;
}
