/** The JSON schema of memctx.config.json, shipped as schema/memctx.config.schema.json. */
import type { LintRule, Thresholds } from './types.js';

/** What a configuration file's `$schema` names: the schema inside the installed package. */
export const SCHEMA_URL = './node_modules/memctx/schema/memctx.config.schema.json';

/** The configuration keys lint reads; any other top-level key is reported as unknown. */
export const CONFIG_KEYS = ['$schema', 'rules', 'thresholds', 'types'] as const;

const THRESHOLD_TEXT: Record<keyof Thresholds, string> = {
  maxTokens: 'tokens over which a memory file is too long',
  sessionMaxTokens: 'tokens over which a session file is too long',
  indexMaxLines: 'lines over which MEMORY.md is too long',
  indexMaxBytes: 'bytes over which MEMORY.md is too long',
  duplicateSimilarity: 'similarity (0-1] at which two files are duplicates',
  decisionMaxAgeDays: 'days after which a low-importance decision is stale',
  decisionMaxImportance: 'importance at or below which an old decision is stale (1-10)',
  resolvedIssueMaxAgeDays: 'days after which a resolved issue is stale',
  learningUnusedDays: 'days unread after which a learning is stale',
};

export function configSchema(rules: LintRule[], defaults: Thresholds): Record<string, unknown> {
  const setting = { enum: ['off', 'warn', 'error'] };
  const threshold = (key: keyof Thresholds) => {
    const value = defaults[key];
    const base = key === 'duplicateSimilarity' ? { type: 'number', exclusiveMinimum: 0, maximum: 1 } : key === 'decisionMaxImportance' ? { type: 'integer', minimum: 1, maximum: 10 } : { type: 'integer', minimum: 1 };
    return { ...base, default: value, description: THRESHOLD_TEXT[key] };
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
