import { describe, expect, it } from 'vitest';
import { lint, lines } from '../../../../helpers/lint.js';

describe('frontmatter/js-engine', () => {
  it('reports executable frontmatter from the scan problems and nothing else', async () => {
    const problems = [
      { path: 'js.md', line: 1, message: '`---js` (JavaScript) frontmatter is never evaluated', hint: 'rewrite the frontmatter as YAML (a plain `---` line)' },
      { path: 'coffee.md', message: '`---coffee` (CoffeeScript) frontmatter is never evaluated' },
      { path: 'bad.md', line: 3, message: 'invalid YAML: x', hint: 'fix the YAML syntax' },
    ];
    const result = await lint(['frontmatter/js-engine'], { problems });
    expect(lines(result)).toEqual([
      'coffee.md:1:1 frontmatter/js-engine `---coffee` (CoffeeScript) frontmatter is never evaluated; rewrite the frontmatter as YAML',
      'js.md:1:1 frontmatter/js-engine `---js` (JavaScript) frontmatter is never evaluated; rewrite the frontmatter as YAML (a plain `---` line)',
    ]);
    expect(result.errorCount).toBe(2);
  });
});
