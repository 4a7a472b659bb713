import { describe, expect, it } from 'vitest';
import { VALID, doc, lint, lines, mem } from '../../../../helpers/lint.js';

describe('frontmatter rules', () => {
  it('invalid-type uses the configured type list', async () => {
    const files = [mem('a.md', doc({ ...VALID, type: 'runbook' })), mem('b.md', doc(VALID))];
    expect(lines(await lint(['frontmatter/invalid-type'], { files }))).toEqual([
      'a.md:4:1 frontmatter/invalid-type invalid type "runbook"; expected one of user, feedback, project, reference',
    ]);
    const config = (await import('../../../../helpers/lint.js')).only('frontmatter/invalid-type');
    config.types = ['project', 'runbook'];
    expect(lines(await lint(config, { files }))).toEqual([]);
  });
});
