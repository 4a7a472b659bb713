import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/kernel/sources/config.js';
import { ConfigError, DEFAULT_THRESHOLDS, resolveLintConfig } from '../../../src/kernel/lint/config.js';
import { RULES } from '../../../src/kernel/lint/rules/index.js';

function errorOf(data: Record<string, unknown>): ConfigError {
  try {
    resolveLintConfig(data, RULES);
  } catch (err) {
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('lint configuration', () => {
  it('defaults: every rule at its default severity, the default thresholds and types', () => {
    const { config, warnings } = resolveLintConfig({}, RULES);
    expect(warnings).toEqual([]);
    expect(config.rules['security/secret']).toBe('error');
    expect(config.rules['content/duplicate']).toBe('warn');
    expect(Object.keys(config.rules)).toHaveLength(RULES.length);
    expect(config.thresholds).toEqual(DEFAULT_THRESHOLDS);
    expect(config.thresholds).toMatchObject({ maxTokens: 2000, indexMaxLines: 200, indexMaxBytes: 25_000, duplicateSimilarity: 0.85, decisionMaxAgeDays: 90, resolvedIssueMaxAgeDays: 30, learningUnusedDays: 180 });
    expect(config.types).toEqual(['user', 'feedback', 'project', 'reference']);
  });

  it('applies severities, thresholds and types', () => {
    const { config, warnings } = resolveLintConfig(
      { rules: { 'content/duplicate': 'error', 'content/ephemeral': 'off' }, thresholds: { maxTokens: 3000, duplicateSimilarity: 0.9 }, types: ['Project', 'runbook'], $schema: './node_modules/memctx/schema/memctx.config.schema.json' },
      RULES,
    );
    expect(warnings).toEqual([]);
    expect(config.rules['content/duplicate']).toBe('error');
    expect(config.rules['content/ephemeral']).toBe('off');
    expect(config.thresholds.maxTokens).toBe(3000);
    expect(config.thresholds.duplicateSimilarity).toBe(0.9);
    expect(config.types).toEqual(['project', 'runbook']);
  });

  it('unknown rule ids and thresholds are warnings, with a suggestion where one is close', () => {
    const { config, warnings } = resolveLintConfig({ rules: { 'content/duplicates': 'off', 'made/up': 'warn' }, thresholds: { maxTokenz: 5 } }, RULES);
    expect(warnings).toEqual([
      'unknown rule "content/duplicates" in "rules"; ignored (did you mean "content/duplicate"?)',
      'unknown rule "made/up" in "rules"; ignored',
      `unknown threshold "maxTokenz" in "thresholds"; ignored (known: ${Object.keys(DEFAULT_THRESHOLDS).join(', ')})`,
    ]);
    expect(config.rules['content/duplicate']).toBe('warn');
  });

  it('a wrong type names the key', () => {
    expect(errorOf({ rules: { 'content/duplicate': 'warning' } })).toMatchObject({ key: 'rules.content/duplicate', message: '"rules.content/duplicate" must be "off", "warn" or "error" (got string "warning")' });
    expect(errorOf({ rules: { 'content/duplicate': 2 } }).key).toBe('rules.content/duplicate');
    expect(errorOf({ rules: ['content/duplicate'] })).toMatchObject({ key: 'rules', message: '"rules" must be an object of rule id to "off", "warn" or "error" (got a list)' });
    expect(errorOf({ thresholds: { maxTokens: 'big' } })).toMatchObject({ key: 'thresholds.maxTokens', message: '"thresholds.maxTokens" must be a positive whole number (got string "big")' });
    expect(errorOf({ thresholds: { maxTokens: 0 } }).key).toBe('thresholds.maxTokens');
    expect(errorOf({ thresholds: { duplicateSimilarity: 1.5 } }).key).toBe('thresholds.duplicateSimilarity');
    expect(errorOf({ thresholds: { decisionMaxImportance: 11 } }).key).toBe('thresholds.decisionMaxImportance');
    expect(errorOf({ thresholds: 5 }).key).toBe('thresholds');
    expect(errorOf({ types: 'project' }).key).toBe('types');
    expect(errorOf({ types: [] }).key).toBe('types');
    expect(errorOf({ types: ['ok', 3] }).key).toBe('types');
  });
});

describe('configuration files', () => {
  it('memctx.config.json at the repository root wins over .memory/config.json, with a warning', () => {
    const root = mkdtempSync(join(tmpdir(), 'memctx-config-'));
    try {
      const mem = join(root, '.memory');
      mkdirSync(mem);
      expect(loadConfig(root, mem)).toEqual({ data: {}, warnings: [] });
      writeFileSync(join(mem, 'config.json'), '{"types": ["a"]}');
      expect(loadConfig(root, mem)).toEqual({ path: join(mem, 'config.json'), data: { types: ['a'] }, warnings: [] });
      writeFileSync(join(root, 'memctx.config.json'), '\uFEFF{"types": ["b"]}');
      expect(loadConfig(root, mem)).toEqual({
        path: join(root, 'memctx.config.json'),
        data: { types: ['b'] },
        warnings: [`both ${join(root, 'memctx.config.json')} and ${join(mem, 'config.json')} exist; using ${join(root, 'memctx.config.json')} and ignoring the other`],
      });
      writeFileSync(join(root, 'memctx.config.json'), '[1, 2]');
      expect(() => loadConfig(root, mem)).toThrow('the configuration must be a JSON object');
      writeFileSync(join(root, 'memctx.config.json'), '{\n  "a": 1,\n  oops\n}');
      expect(() => loadConfig(root, mem)).toThrow(/invalid JSON/);
      try {
        loadConfig(root, mem);
      } catch (err) {
        expect((err as { line?: number; exitCode: number }).line).toBe(3);
        expect((err as { exitCode: number }).exitCode).toBe(2);
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
