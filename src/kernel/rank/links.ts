import { fileStem } from '../store/layout.js';
import type { PackFile } from './types.js';

/** The targets of a file that links to no memory file. */
const NO_TARGETS: ReadonlySet<string> = new Set();

function slug(text: string): string {
  const lower = text.toLowerCase();
  if (/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(lower)) return lower;
  return lower.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '');
}

/**
 * Links between memory files, by path: `related:` entries, Markdown links to .md files and
 * `[[name]]` links (matched by file name, `name:` or its kebab-case form). Links to missing files
 * and to the file itself are dropped.
 */
export function linkGraph(files: readonly PackFile[]): Map<string, ReadonlySet<string>> {
  // Paths are gathered only when some file links (most memories have few links or none).
  let paths: Set<string> | undefined;
  const byPath = (path: string) => ((paths ??= new Set(files.map((f) => f.path))).has(path) ? path : undefined);
  // Names are gathered only when some file has a [[name]] link (most memories have few or none).
  let names: Map<string, string> | undefined;
  const byName = () => {
    if (names) return names;
    names = new Map<string, string>();
    for (const file of files) {
      for (const key of [fileStem(file.path).toLowerCase(), file.name.toLowerCase(), slug(file.name)]) {
        if (key !== '' && !names.has(key)) names.set(key, file.path);
      }
    }
    return names;
  };
  const graph = new Map<string, ReadonlySet<string>>();
  for (const file of files) {
    // A set only for a file that links (most link nowhere): the others share one empty set.
    let targets: Set<string> | undefined;
    for (const link of file.links) {
      const target = link.kind === 'wiki'
        ? byName().get(link.target.toLowerCase()) ?? byName().get(slug(link.target))
        : byPath(link.target) ?? byPath(`${link.target}.md`);
      if (target !== undefined && target !== file.path) (targets ??= new Set()).add(target);
    }
    graph.set(file.path, targets ?? NO_TARGETS);
  }
  return graph;
}
