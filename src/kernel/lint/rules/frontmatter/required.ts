import { MAX_NAME_LENGTH } from '../../../store/schema.js';
import { keyLine } from '../../text.js';
import type { LintRule, Report } from '../../types.js';

function present(value: unknown): boolean {
  if (typeof value === 'string') return value.trim() !== '';
  return typeof value === 'number' || typeof value === 'boolean';
}

const rule: LintRule = {
  id: 'frontmatter/required',
  description: `Every memory file has \`name\` (at most ${MAX_NAME_LENGTH} characters), \`description\` and \`type\` (or \`metadata.type\`) in its frontmatter.`,
  defaultSeverity: 'error',
  fixable: false,
  check(ctx) {
    const out: Report[] = [];
    for (const file of ctx.files) {
      if (!file.hasFrontmatter) {
        out.push({ file: file.path, line: 1, column: 1, message: 'no frontmatter: add a `---` block with name, description and type' });
        continue;
      }
      if (!present(file.data.name)) out.push({ file: file.path, line: 1, column: 1, message: 'missing required field "name"' });
      else if (String(file.data.name).trim().length > MAX_NAME_LENGTH) {
        out.push({ file: file.path, line: keyLine(file, 'name'), column: 1, message: `"name" is ${String(file.data.name).trim().length} characters; at most ${MAX_NAME_LENGTH}` });
      }
      if (!present(file.data.description)) out.push({ file: file.path, line: 1, column: 1, message: 'missing required field "description" (one line, shown in MEMORY.md)' });
      if (file.type === undefined) out.push({ file: file.path, line: 1, column: 1, message: `missing required field "type" (${ctx.config.types.join(' | ')})` });
    }
    return out;
  },
};

export default rule;
