import type { LintRule } from '../../types.js';
import { EXECUTABLE_FRONTMATTER } from './parse-error.js';

const rule: LintRule = {
  id: 'frontmatter/js-engine',
  description: 'Frontmatter in an executable language (`---js`, `---javascript`, `---coffee`): memctx never evaluates it, and a file like this in a pull request is an attempt at code execution in CI.',
  defaultSeverity: 'error',
  fixable: false,
  check(ctx) {
    return ctx.problems
      .filter((p) => EXECUTABLE_FRONTMATTER.test(p.message))
      .map((p) => ({ file: p.path, line: p.line ?? 1, column: 1, message: `${p.message}; ${p.hint ?? 'rewrite the frontmatter as YAML'}` }));
  },
};

export default rule;
