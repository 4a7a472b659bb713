import { describe, expect, it } from 'vitest';
import { RULES } from '../../../../src/kernel/lint/rules/index.js';

describe('rule list', () => {
  it('has every rule the issue asks for, each with a group/name id, a description and a severity', () => {
    const ids = RULES.map((r) => r.id);
    for (const id of [
      'frontmatter/parse-error', 'frontmatter/required', 'frontmatter/invalid-type', 'frontmatter/invalid-date', 'frontmatter/importance-range',
      'frontmatter/js-engine', 'index/stale', 'index/too-long', 'index/dangling-link', 'index/unlisted', 'content/too-large', 'content/duplicate',
      'content/stale', 'content/ephemeral', 'content/broken-reference', 'session/missing-field', 'session/over-budget', 'security/secret',
    ]) expect(ids).toContain(id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const rule of RULES) {
      expect(rule.id).toMatch(/^[a-z]+\/[a-z-]+$/);
      expect(rule.description.length).toBeGreaterThan(20);
      expect(['error', 'warning']).toContain(rule.defaultSeverity);
    }
    expect(RULES.filter((r) => r.fixable).map((r) => r.id).sort()).toEqual(['frontmatter/missing-updated', 'index/stale', 'index/unlisted']);
  });
});

describe('docs/commands/lint.md', () => {
  it('documents every rule with its default severity and whether it is fixable', async () => {
    const { readFileSync } = await import('node:fs');
    const readme = readFileSync(new URL('../../../../docs/commands/lint.md', import.meta.url), 'utf8');
    for (const rule of RULES) {
      const row = readme.split('\n').find((line) => line.startsWith(`| \`${rule.id}\` |`));
      expect(row, rule.id).toBeDefined();
      expect(row!.split('|').slice(2, 4).map((c) => c.trim())).toEqual([rule.defaultSeverity === 'error' ? 'error' : 'warn', rule.fixable ? 'yes' : 'no']);
    }
  });
});
