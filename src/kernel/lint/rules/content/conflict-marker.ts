import { INDEX_FILE } from '../../../store/layout.js';
import { conflictMarkerLines } from '../../../markdown/conflicts.js';
import type { LintRule, Report } from '../../types.js';

const MARKER = /^(?:<{7}|>{7}|\|{7})/m;

const rule: LintRule = {
  id: 'content/conflict-marker',
  description: 'No git conflict markers (`<<<<<<<`, `=======`, `>>>>>>>`) left in a memory file or MEMORY.md, unparseable files included: a merge was committed half resolved. Resolve it by hand; for MEMORY.md, `memctx init` registers a merge driver that keeps both sides.',
  defaultSeverity: 'error',
  fixable: false,
  check(ctx) {
    // Only a file with a line starting `<<<<<<<`, `|||||||` or `>>>>>>>` can have markers: the rest is not split into lines.
    const marked = ctx.files.filter((file) => MARKER.test(file.body) || MARKER.test(file.frontmatter));
    const items: Array<[string, string]> = marked.map((file) => [file.path, ctx.textOf(file)]);
    items.push(...ctx.problemTexts);
    if (ctx.indexText !== undefined) items.push([INDEX_FILE, ctx.indexText]);
    const out: Report[] = [];
    for (const [file, text] of items) {
      const lines = conflictMarkerLines(text);
      if (lines.length) out.push({ file, line: lines[0], column: 1, message: `git conflict marker${lines.length > 1 ? `s on lines ${lines.join(', ')}` : ''}: a merge left this file half resolved; keep the right text and delete the marker lines` });
    }
    return out;
  },
};

export default rule;
