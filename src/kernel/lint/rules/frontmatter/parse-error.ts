import type { LintRule } from '../../types.js';

/** Scan problems that come from executable frontmatter languages (reported by frontmatter/js-engine). */
export const EXECUTABLE_FRONTMATTER = /never evaluated|frontmatter language `(coffee|coffeescript)`/i;

const rule: LintRule = {
  id: 'frontmatter/parse-error',
  description: 'The file cannot be read as a memory file: malformed or unterminated YAML, alias bombs, `__proto__` keys, binary data, invalid UTF-8, oversized files.',
  defaultSeverity: 'error',
  fixable: false,
  check(ctx) {
    return ctx.problems
      .filter((p) => !EXECUTABLE_FRONTMATTER.test(p.message))
      .map((p) => ({ file: p.path, line: p.line, column: p.line ? 1 : undefined, message: p.hint ? `${p.message}; ${p.hint}` : p.message }));
  },
};

export default rule;
