import { supersession } from '../../../lifecycle/supersede.js';
import { keyLine } from '../../text.js';
import type { LintRule, Report } from '../../types.js';

const rule: LintRule = {
  id: 'content/supersedes',
  description: '`supersedes:` names memory files that exist (a path relative to the memory directory, or to the file\'s folder), and no two files supersede each other in a ring; a superseded file is never packed in full and gc archives superseded decisions and states.',
  defaultSeverity: 'warning',
  fixable: false,
  check(ctx) {
    const { missing, cycles } = supersession(ctx.files);
    const byPath = new Map(ctx.files.map((f) => [f.path, f]));
    const out: Report[] = missing.map(({ path, target }) => ({
      file: path,
      line: keyLine(byPath.get(path)!, 'supersedes'),
      column: 1,
      message: `supersedes: ${target} names no memory file; give its path relative to the memory directory (see \`memctx ls\`), or remove the entry`,
    }));
    for (const ring of cycles) {
      const [first, ...rest] = ring;
      out.push({
        file: first,
        line: keyLine(byPath.get(first)!, 'supersedes'),
        column: 1,
        message: `${first} and ${rest.join(', ')} supersede each other; the newer one stands (at the same age neither is superseded) — remove supersedes: from the file that is current`,
      });
    }
    return out;
  },
};

export default rule;
