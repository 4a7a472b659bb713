import { describe, expect, it } from 'vitest';
import { addedFrontmatterFindings, frontmatterFindings } from '../../../src/kernel/lint/check-new.js';
import { defaultLintConfig } from '../../../src/kernel/lint/config.js';
import { RULES } from '../../../src/kernel/lint/rules/index.js';
import type { Finding } from '../../../src/kernel/lint/types.js';
import { doc, mem, NOW, only, VALID } from '../../helpers/lint.js';

const rules = (findings: Finding[]) => findings.map((f) => `${f.ruleId} ${f.severity}`).sort();

describe('frontmatterFindings', () => {
  it('has nothing to say about a valid file', async () => {
    expect(await frontmatterFindings(mem('a.md', doc(VALID)), defaultLintConfig(RULES), NOW)).toEqual([]);
  });

  it("runs only the frontmatter rules, and a rule the config turns off still warns", async () => {
    const file = mem('a.md', doc({ name: 'A', type: 'bogus', updated: '2026-02-30', importance: 11 }, 'TODO: a body rule would see this\n'));
    expect(rules(await frontmatterFindings(file, defaultLintConfig(RULES), NOW))).toEqual([
      'frontmatter/importance-range error',
      'frontmatter/invalid-date error',
      'frontmatter/invalid-type error',
      'frontmatter/required error',
    ]);
    const off = only();
    expect(rules(await frontmatterFindings(file, off, NOW))).toEqual([
      'frontmatter/importance-range warning',
      'frontmatter/invalid-date warning',
      'frontmatter/invalid-type warning',
      'frontmatter/required warning',
    ]);
  });
});

describe('addedFrontmatterFindings', () => {
  it('without a file before, is every finding', async () => {
    const after = mem('a.md', doc({ ...VALID, type: 'bogus' }));
    expect(rules(await addedFrontmatterFindings(after, defaultLintConfig(RULES), NOW))).toEqual(['frontmatter/invalid-type error']);
  });

  it('an edit may leave a problem it did not make, never add one', async () => {
    const before = mem('a.md', doc({ ...VALID, type: 'bogus' }));
    const same = mem('a.md', doc({ ...VALID, type: 'bogus' }, 'New body.\n'));
    expect(await addedFrontmatterFindings(same, defaultLintConfig(RULES), NOW, before)).toEqual([]);
    const worse = mem('a.md', doc({ ...VALID, type: 'bogus', updated: 'someday' }));
    expect(rules(await addedFrontmatterFindings(worse, defaultLintConfig(RULES), NOW, before))).toEqual(['frontmatter/invalid-date error']);
  });

  it('a file that had no frontmatter is not blamed for the fields it still lacks once stamped', async () => {
    const before = mem('a.md', 'Just a body.\n');
    const after = mem('a.md', doc({ updated: '2026-11-21' }, 'Just a body.\n'));
    expect(await addedFrontmatterFindings(after, defaultLintConfig(RULES), NOW, before)).toEqual([]);
  });
});
