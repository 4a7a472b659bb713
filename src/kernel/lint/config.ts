import * as v from 'valibot';
import { MemctxError } from '../errors.js';
import { DEFAULT_ARCHIVE_THRESHOLDS } from '../lifecycle/archive.js';
import { MEMORY_TYPES } from '../store/schema.js';
import type { LintConfig, LintRule, Thresholds } from './types.js';
import { configSchema } from '../sources/config-schema.js';
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

const describe = (value: unknown) => (Array.isArray(value) ? 'a list' : value === null ? 'null' : `${typeof value} ${JSON.stringify(value)}`);

/** The known id closest to a mistyped one, for "did you mean": same rule name, or at most 3 edits away. */
function closest(id: string, known: string[]): string | undefined {
  const name = id.slice(id.lastIndexOf('/') + 1);
  const sameName = known.find((k) => k.endsWith(`/${name}`));
  if (sameName) return sameName;
  return closestMatch(id, known, 3);
}

/** `value` without the keys `known` lacks, each left out with a warning from `warn`. */
function knownOnly(value: unknown, known: string[], warn: (key: string) => string, warnings: string[]): unknown {
  if (!isRecord(value)) return value;
  const kept: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (known.includes(key)) kept[key] = item;
    else warnings.push(warn(key));
  }
  return kept;
}

/**
 * Validate a configuration object against the one configuration schema (schemas/config.ts).
 * Throws ConfigError naming the key for a wrong type or range; an unknown key, rule id or
 * threshold is a warning (with a "did you mean" when one is close) and is ignored.
 */
export function resolveLintConfig(data: Record<string, unknown>, rules: LintRule[]): { config: LintConfig; warnings: string[] } {
  const schema = configSchema(rules, DEFAULT_THRESHOLDS);
  const warnings: string[] = [];
  const keys = Object.keys(schema.entries);
  const ids = rules.map((r) => r.id);
  const thresholdKeys = Object.keys(DEFAULT_THRESHOLDS);
  const top = knownOnly(data, keys, (key) => `unknown key "${key}"; ignored${suggest(key, keys, ` (known: ${keys.join(', ')})`)}`, warnings) as Record<string, unknown>;
  const checked: Record<string, unknown> = {
    ...top,
    ...('rules' in top ? { rules: knownOnly(top.rules, ids, (id) => `unknown rule "${id}" in "rules"; ignored${suggest(id, ids, '')}`, warnings) } : {}),
    ...('thresholds' in top ? { thresholds: knownOnly(top.thresholds, thresholdKeys, (key) => `unknown threshold "${key}" in "thresholds"; ignored (known: ${thresholdKeys.join(', ')})`, warnings) } : {}),
  };
  // valibot takes a list for an object (with keys "0", "1", …): refused here, with the object's words.
  for (const key of keys) {
    const entry = schema.entries[key as keyof typeof schema.entries].wrapped as { type: string; message?: unknown };
    if (entry.type === 'strict_object' && Array.isArray(checked[key])) throw new ConfigError(key, `"${key}" ${String(entry.message)} (got a list)`);
  }
  const result = v.safeParse(schema, checked, { abortEarly: true });
  if (!result.success) {
    const issue = result.issues[0];
    // The key named is an object's key: a bad item names its list.
    const path = issue.path ?? [];
    const item = path.findIndex((p) => typeof p.key !== 'string');
    const named = item === -1 ? path : path.slice(0, item);
    const key = named.map((p) => String(p.key)).join('.');
    throw new ConfigError(key, `"${key}" ${issue.message} (got ${describe(named.at(-1)?.value)})`);
  }
  const { rules: settings, thresholds, types } = result.output;
  return { config: { rules: settings, thresholds, types: (types ?? [...MEMORY_TYPES]).map((t) => t.trim().toLowerCase()) }, warnings };
}

function suggest(key: string, known: string[], otherwise: string): string {
  const guess = closest(key, known);
  return guess ? ` (did you mean "${guess}"?)` : otherwise;
}

/** The default configuration, as `resolveLintConfig({})` gives it. */
export function defaultLintConfig(rules: LintRule[]): LintConfig {
  return resolveLintConfig({}, rules).config;
}
