import { describe, expect, it } from 'vitest';
import { lint, lines } from '../../../../helpers/lint.js';

describe('frontmatter rules', () => {
  it('parse-error and js-engine come from the scan problems, with file, line and hint', async () => {
    const problems = [
      { path: 'bad.md', line: 3, message: 'invalid YAML: x', hint: 'fix the YAML syntax' },
      { path: 'js.md', line: 1, message: '`---js` (JavaScript) frontmatter is never evaluated', hint: 'rewrite the frontmatter as YAML (a plain `---` line)' },
      { path: 'bomb.md', message: 'YAML aliases expand too far (a possible alias bomb); refused', hint: 'remove the &anchors and *aliases' },
    ];
    const result = await lint(['frontmatter/parse-error', 'frontmatter/js-engine'], { problems });
    expect(lines(result)).toEqual([
      'bad.md:3:1 frontmatter/parse-error invalid YAML: x; fix the YAML syntax',
      'bomb.md:-:- frontmatter/parse-error YAML aliases expand too far (a possible alias bomb); refused; remove the &anchors and *aliases',
      'js.md:1:1 frontmatter/js-engine `---js` (JavaScript) frontmatter is never evaluated; rewrite the frontmatter as YAML (a plain `---` line)',
    ]);
    expect(result.errorCount).toBe(3);
  });
});
