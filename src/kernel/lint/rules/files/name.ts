import { ARCHIVE_DIR, CACHE_DIR, INDEX_FILE, TEMPLATES_DIR } from '../../../store/layout.js';
import type { LintRule, Report } from '../../types.js';

/** Characters in a name that no memctx command can take as a path (see store/paths.ts). */
const UNADDRESSABLE = /[\\\r\n\t]|%(2e|2f|5c|00)/i;
const NOTE_LIKE = /\.(markdown|mdown|mkd|mdx|txt)$/i;
const SKIPPED_DIRS = [CACHE_DIR, TEMPLATES_DIR, ARCHIVE_DIR].map((d) => `${d}/`);

function describeName(path: string): string {
  if (/[\r\n]/.test(path)) return 'a line break';
  if (path.includes('\t')) return 'a tab';
  if (path.includes('\\')) return 'a backslash';
  return 'a URL-encoded path character (%2e, %2f, %5c or %00)';
}

const rule: LintRule = {
  id: 'files/name',
  description: 'Every note in the memory directory can be indexed and addressed: only `.md` files outside dot-folders are memory files, and a name with a backslash, a line break, a tab or %2e/%2f/%5c/%00 cannot be given to show, edit, rm or mv.',
  defaultSeverity: 'warning',
  fixable: false,
  check(ctx) {
    const out: Report[] = [];
    const scanned = new Set([...ctx.files.map((f) => f.path), ...ctx.problems.map((p) => p.path)]);
    for (const path of [...scanned].sort()) {
      if (UNADDRESSABLE.test(path)) {
        out.push({ file: path, line: 1, column: 1, message: `its name holds ${describeName(path)}, so memctx show/edit/rm/mv cannot name it; rename it` });
      }
    }
    for (const path of [...ctx.memoryPaths].sort()) {
      if (scanned.has(path) || path === INDEX_FILE || SKIPPED_DIRS.some((d) => path.startsWith(d))) continue;
      const hidden = path.split('/').some((part) => part.startsWith('.'));
      if (/\.md$/i.test(path) && hidden) {
        out.push({ file: path, line: 1, column: 1, message: 'never indexed: files in dot-folders and dot-files are skipped; move or rename it if it is a memory' });
      } else if (NOTE_LIKE.test(path) && !hidden) {
        out.push({ file: path, line: 1, column: 1, message: `never indexed: only .md files are memory files; rename it to ${path.replace(NOTE_LIKE, '.md')} if it is a memory` });
      }
    }
    return out;
  },
};

export default rule;
