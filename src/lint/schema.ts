/** The JSON schema of memctx.config.json, shipped as schema/memctx.config.schema.json. */
import type { LintRule, Thresholds } from './types.js';

/** What a configuration file's `$schema` names: the schema inside the installed package. */
export const SCHEMA_URL = './node_modules/memctx/schema/memctx.config.schema.json';

/** The configuration keys lint reads; any other top-level key is reported as unknown. */
export const CONFIG_KEYS = ['$schema', 'rules', 'thresholds', 'types'] as const;

/** A rule's settings in the configuration. */
export const RULE_SETTINGS = ['off', 'warn', 'error'] as const;

/** One threshold: its JSON Schema range, the words a refusal uses, and what it means. `fitsThreshold` checks a value against the same range. */
interface ThresholdSpec {
  type: 'integer' | 'number';
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  /** "a positive whole number", for the refusal. */
  says: string;
  description: string;
}

const count = (description: string, says = 'a positive whole number'): ThresholdSpec => ({ type: 'integer', minimum: 1, says, description });

/** The thresholds, defined once: resolveLintConfig checks with them and configSchema writes them out. */
export const THRESHOLD_SPECS: Record<keyof Thresholds, ThresholdSpec> = {
  maxTokens: count('tokens over which a memory file is too long'),
  sessionMaxTokens: count('tokens over which a session file is too long'),
  indexMaxLines: count('lines over which MEMORY.md is too long'),
  indexMaxBytes: count('bytes over which MEMORY.md is too long'),
  duplicateSimilarity: { type: 'number', exclusiveMinimum: 0, maximum: 1, says: 'a number above 0 and at most 1', description: 'similarity (0-1] at which two files are duplicates' },
  decisionMaxAgeDays: count('days after which a low-importance decision is stale', 'a positive whole number of days'),
  decisionMaxImportance: { type: 'integer', minimum: 1, maximum: 10, says: 'a whole number from 1 to 10', description: 'importance at or below which an old decision is stale (1-10)' },
  resolvedIssueMaxAgeDays: count('days after which a resolved issue is stale', 'a positive whole number of days'),
  learningUnusedDays: count('days unread after which a learning is stale', 'a positive whole number of days'),
};

/** Whether a configuration value fits its threshold's range (the JSON Schema keywords above). */
export function fitsThreshold(spec: ThresholdSpec, value: unknown): value is number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return false;
  if (spec.type === 'integer' && !Number.isInteger(value)) return false;
  if (spec.minimum !== undefined && value < spec.minimum) return false;
  if (spec.exclusiveMinimum !== undefined && value <= spec.exclusiveMinimum) return false;
  return spec.maximum === undefined || value <= spec.maximum;
}

export function configSchema(rules: LintRule[], defaults: Thresholds): Record<string, unknown> {
  const setting = { enum: [...RULE_SETTINGS] };
  const threshold = (key: keyof Thresholds) => {
    const { says: _says, description, ...range } = THRESHOLD_SPECS[key];
    return { ...range, default: defaults[key], description };
  };
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'memctx configuration (memctx.config.json or .memory/config.json)',
    type: 'object',
    additionalProperties: false,
    properties: {
      $schema: { type: 'string' },
      rules: {
        type: 'object',
        description: 'rule id to "off", "warn" or "error"',
        additionalProperties: false,
        properties: Object.fromEntries(rules.map((r) => [r.id, { ...setting, default: r.defaultSeverity === 'error' ? 'error' : 'warn', description: r.description }])),
      },
      thresholds: {
        type: 'object',
        additionalProperties: false,
        properties: Object.fromEntries((Object.keys(defaults) as (keyof Thresholds)[]).map((k) => [k, threshold(k)])),
      },
      types: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 }, description: 'allowed values of `type` (default user, feedback, project, reference)' },
    },
  };
}
