/**
 * The configuration file (memctx.config.json or .memory/config.json): one schema checks it
 * (lint/config.ts `resolveLintConfig`) and schema/memctx.config.schema.json is generated from it
 * (scripts/config-schema.mjs; test/lint/ci.test.ts checks the committed file).
 */
import * as v from 'valibot';
import type { LintRule, Thresholds } from '../lint/types.js';
import { MEMORY_TYPES } from '../store/schema.js';

/** What a configuration file's `$schema` names: the schema inside the installed package. */
export const SCHEMA_URL = './node_modules/memctx/schema/memctx.config.schema.json';

/** A rule's settings in the configuration. */
const RULE_SETTINGS = ['off', 'warn', 'error'] as const;

/** The refusal for one key: what it must be (lint/config.ts adds the key and what it was). */
const mustBe = (what: string) => `must be ${what}`;

function count(description: string, what = 'a positive whole number') {
  const m = mustBe(what);
  return v.pipe(v.number(m), v.integer(m), v.minValue(1, m), v.description(description));
}

const similarity = mustBe('a number above 0 and at most 1');
const importance = mustBe('a whole number from 1 to 10');
const days = 'a positive whole number of days';

/** The thresholds with their ranges and meanings; the defaults come from lint/config.ts. */
const THRESHOLDS: Record<keyof Thresholds, v.GenericSchema<number>> = {
  maxTokens: count('tokens over which a memory file is too long'),
  sessionMaxTokens: count('tokens over which a session file is too long'),
  indexMaxLines: count('lines over which MEMORY.md is too long'),
  indexMaxBytes: count('bytes over which MEMORY.md is too long'),
  duplicateSimilarity: v.pipe(v.number(similarity), v.gtValue(0, similarity), v.maxValue(1, similarity), v.description('similarity (0-1] at which two files are duplicates')),
  decisionMaxAgeDays: count('days after which a low-importance decision is stale', days),
  decisionMaxImportance: v.pipe(v.number(importance), v.integer(importance), v.minValue(1, importance), v.maxValue(10, importance), v.description('importance at or below which an old decision is stale (1-10)')),
  resolvedIssueMaxAgeDays: count('days after which a resolved issue is stale', days),
  learningUnusedDays: count('days unread after which a learning is stale', days),
};

const typeNames = mustBe('a non-empty list of type names');
const percent = mustBe('a percentage or a list of them (above 0, at most 100)');
const onePercent = v.pipe(v.number(percent), v.gtValue(0, percent), v.maxValue(100, percent));

/** `flush.askAt`: the context percentages at which `memctx checkpoint` asks for the session summary. */
const AskAt = v.pipe(
  v.union([onePercent, v.pipe(v.array(onePercent, percent), v.minLength(1, percent))], percent),
  v.description('context percentages at which the Stop hook asks the agent for its session summary (default 80)'),
);

/** `flush.askAt` checked: its percentages in order without repeats, or what it must be. */
export function parseAskAt(value: unknown): { thresholds: number[] } | { problem: string } {
  const result = v.safeParse(AskAt, value);
  if (!result.success) return { problem: result.issues[0].message };
  return { thresholds: [...new Set(Array.isArray(result.output) ? result.output : [result.output])].sort((a, b) => a - b) };
}

/** The whole configuration: every key, its type, range, default and meaning. */
export function configSchema(rules: readonly LintRule[], defaults: Thresholds) {
  const setting = (rule: LintRule) =>
    v.optional(v.pipe(v.picklist(RULE_SETTINGS, mustBe('"off", "warn" or "error"')), v.description(rule.description)), rule.defaultSeverity === 'error' ? 'error' : 'warn');
  const thresholds = Object.fromEntries((Object.keys(THRESHOLDS) as (keyof Thresholds)[]).map((key) => [key, v.optional(THRESHOLDS[key], defaults[key])])) as Record<keyof Thresholds, v.OptionalSchema<v.GenericSchema<number>, number>>;
  return v.pipe(
    v.strictObject({
      $schema: v.optional(v.pipe(v.string(mustBe('a string')), v.description('this JSON Schema, for editors'))),
      rules: v.optional(
        v.pipe(v.strictObject(Object.fromEntries(rules.map((rule) => [rule.id, setting(rule)])), mustBe('an object of rule id to "off", "warn" or "error"')), v.description('rule id to "off", "warn" or "error"')),
        {},
      ),
      thresholds: v.optional(v.pipe(v.strictObject(thresholds, mustBe('an object')), v.description('the limits the rules check against')), {}),
      types: v.optional(
        v.pipe(
          v.array(v.pipe(v.string(typeNames), v.regex(/\S/, typeNames)), typeNames),
          v.minLength(1, typeNames),
          v.description(`allowed values of \`type\` (default ${MEMORY_TYPES.join(', ')})`),
        ),
      ),
      flush: v.optional(
        v.pipe(
          v.strictObject({
            askAt: v.optional(AskAt),
          }, mustBe('an object')),
          v.description('`memctx checkpoint` (the Stop hook)'),
        ),
      ),
    }),
    v.title('memctx configuration (memctx.config.json or .memory/config.json)'),
  );
}
