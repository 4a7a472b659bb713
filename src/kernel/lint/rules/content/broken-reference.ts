import { fileStem } from '../../../store/layout.js';
import type { MemoryFile } from '../../../store/types.js';
import { joinPath } from '../../../markdown/links.js';
import { repoHas } from '../../repo.js';
import { bodyLines, keyLine } from '../../text.js';
import type { LintRule, Report, RepoView, RuleContext } from '../../types.js';

/** Extensions that make a slash-separated word a file path rather than prose ("and/or"). */
const EXTENSIONS = new Set(
  ('c cc cpp cs css cjs cts csv cfg conf dart env ex exs gitignore go gradle graphql h hpp html ini java jl js json json5 jsonc jsx kt kts less lock lua m md mdx mjs mts php pl proto ps1 py pyi r rb rs sass scala scss sh sql svelte swift tf toml ts tsx txt vue xml yaml yml zig zsh').split(' '),
);
/** Product names that look like files. */
const NOT_FILES = /^(?:node|next|nuxt|vue|react|express|three|d3|ember|backbone|chart|angular|socket|deno|bun|alpine|solid|svelte)\.(?:js|io)$/i;
// A scheme starts where no scheme character precedes it, so a run like a.a.a.a is tried once, not at every dot.
const URL = /(?<![a-z0-9+.-])[a-z][a-z0-9+.-]*:\/\/[^\s)>\]]+/gi;
const MD_LINK_TARGET = /\]\(\s*<?[^()[\]\s>]+\.md(?:#[^()[\]\s>]*)?>?\s*\)/gi;
const PATH_CHARS = /^(?:\.{1,2}\/)*[\w.+-]+(?:\/[\w.+-]+)*\/?$/;
const TEMPLATE = /[<>{}*$]/;
const DOMAIN = /^(?:www\.|[\w-]+\.(?:com|org|net|io|dev|ai|co|app|sh|edu|gov)$)/i;

interface Mention {
  path: string;
  column: number;
  /** A bare file name (no slash): matched against every base name. */
  bare: boolean;
}

function extensionOf(segment: string): string | undefined {
  const at = segment.lastIndexOf('.');
  return at > 0 ? segment.slice(at + 1).toLowerCase() : undefined;
}

/** The token without a trailing `:line[:col]` and trailing punctuation (a loop: a regex anchored only at `$` is quadratic on long runs). */
function clean(token: string): string {
  const dropLineCol = (t: string) => {
    let end = t.length;
    for (let groups = 0; groups < 2; groups++) {
      let at = end;
      while (at > 0 && t.charCodeAt(at - 1) >= 48 && t.charCodeAt(at - 1) <= 57) at--;
      if (at === end || at === 0 || t[at - 1] !== ':') break;
      end = at - 1;
    }
    return t.slice(0, end);
  };
  let t = dropLineCol(token);
  let end = t.length;
  while (end > 0 && '.,:;!?'.includes(t[end - 1])) end--;
  t = t.slice(0, end);
  return dropLineCol(t);
}

/** Undefined when the token is not a path; else whether it is a bare file name (no slash). */
function looksLikePath(token: string, inCode: boolean): Mention['bare'] | undefined {
  if (token.length < 3 || !PATH_CHARS.test(token)) return undefined;
  const segments = token.split('/').filter((s) => s !== '' && s !== '.' && s !== '..');
  if (segments.length === 0) return undefined;
  const last = segments[segments.length - 1];
  if (NOT_FILES.test(last) || DOMAIN.test(segments[0])) return undefined;
  const ext = extensionOf(last);
  const hasExt = ext !== undefined && EXTENSIONS.has(ext);
  if (token.includes('/')) {
    if (hasExt || token.endsWith('/')) return false;
    return inCode && segments.length > 1 ? false : undefined;
  }
  return inCode && hasExt ? true : undefined;
}

/** Paths a line mentions: slash-separated words with a file extension, and `code spans` that are paths. */
export function mentionedPaths(text: string): Mention[] {
  const line = text.replace(URL, (m) => ' '.repeat(m.length)).replace(MD_LINK_TARGET, (m) => ' '.repeat(m.length));
  const found = new Map<string, Mention>();
  const foundPaths = new Set<string>();
  for (const m of line.matchAll(/`([^`\n]+)`/g)) {
    const token = clean(m[1].trim());
    const bare = /\s/.test(token) ? undefined : looksLikePath(token, true);
    if (bare !== undefined) {
      found.set(`${m.index}`, { path: token, column: m.index + 2, bare });
      foundPaths.add(token);
    }
  }
  for (const m of line.matchAll(/[^\s,;()[\]{}<>"'`|*]+/g)) {
    if (m[0].startsWith('@') || m[0].startsWith('/') || m[0].startsWith('~') || m[0].startsWith('$')) continue;
    // Part of a template such as plans/<task-slug>/ or src/{a,b}.ts: not a real path.
    if (TEMPLATE.test(line[m.index + m[0].length] ?? '') || TEMPLATE.test(line[m.index - 1] ?? '')) continue;
    const token = clean(m[0]);
    if (!token.includes('/')) continue;
    const bare = looksLikePath(token, false);
    if (bare === false && !foundPaths.has(token)) {
      found.set(`${m.index}`, { path: token, column: m.index + 1, bare });
      foundPaths.add(token);
    }
  }
  return [...found.values()].sort((a, b) => a.column - b.column);
}

function dirOf(path: string): string {
  return path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
}

interface Known {
  memoryBasenames: Set<string>;
}

/**
 * The repository path a mention names (tried from the memory file's folder, the repository root and
 * the memory directory's parent), or undefined when none exists. Shared with drift's anchors.
 */
export function repoPathOf(repo: RepoView, file: Pick<MemoryFile, 'path'>, mention: Pick<Mention, 'path' | 'bare'>): string | undefined {
  if (mention.bare) return undefined;
  const path = mention.path.replace(/\/$/, '');
  const prefix = repo.memoryPrefix;
  // tried in turn: the root, the memory file's folder, the memory directory's parent
  const there = (p: string | undefined) => p !== undefined && repoHas(repo, p);
  const root = joinPath('', path);
  if (there(root)) return root;
  if (prefix === undefined) return undefined;
  const near = joinPath(joinPath(prefix, dirOf(file.path)) ?? '', path);
  if (there(near)) return near;
  const above = joinPath(dirOf(prefix), path);
  return there(above) ? above : undefined;
}

/** Does a mention resolve: near the memory file, in the memory directory, from the repository root, or from the memory directory's parent? */
function exists(ctx: RuleContext, file: MemoryFile, mention: Mention, known: Known): boolean {
  const repo = ctx.repo!;
  if (mention.bare) return repo.basenames.has(mention.path) || known.memoryBasenames.has(mention.path);
  const path = mention.path.replace(/\/$/, '');
  const inMemory = (p: string | undefined) => p !== undefined && (ctx.memoryPaths.has(p) || ctx.memoryDirs.has(p));
  if (inMemory(joinPath(dirOf(file.path), path)) || inMemory(joinPath('', path))) return true;
  return repoPathOf(repo, file, mention) !== undefined;
}

/** Body lines with inline code blanked out, by file line number. */
function proseLines(file: MemoryFile): Map<number, string> {
  return new Map(bodyLines(file).map((l) => [l.line, l.text.replace(/`[^`\n]*`/g, (m) => ' '.repeat(m.length))]));
}

function linkReports(ctx: RuleContext, file: MemoryFile, names: Set<string>): Report[] {
  const out: Report[] = [];
  let prose: Map<number, string> | undefined;
  for (const link of file.links) {
    if (link.line !== undefined) {
      prose ??= proseLines(file);
      const text = prose.get(link.line) ?? '';
      if (link.kind === 'wiki' ? !text.includes(`[[${link.target}`) : !text.includes('](')) continue; // only inside `code`
    }
    if (link.kind === 'wiki') {
      const name = link.target.replace(/\.md$/i, '').trim().toLowerCase();
      if (!names.has(name)) out.push({ file: file.path, line: link.line, column: 1, message: `links to [[${link.target}]], which matches no memory file name; fix or remove the link` });
      continue;
    }
    if (ctx.memoryPaths.has(link.target)) continue;
    const prefix = ctx.repo?.memoryPrefix;
    if (prefix !== undefined && ctx.repo && repoHas(ctx.repo, joinPath(prefix, link.target) ?? '\0')) continue;
    const line = link.kind === 'related' ? keyLine(file, 'related') : link.line;
    out.push({ file: file.path, line, column: 1, message: `links to ${link.target}, which does not exist in the memory directory; fix or remove the link` });
  }
  return out;
}

const rule: LintRule = {
  id: 'content/broken-reference',
  description: 'Memory is a hint, not the truth: every repository path a memory mentions (src/auth/session.ts, `src/cli/`) still exists, and every link to another memory (related:, [x](y.md), [[name]]) resolves. Paths in fenced code are not checked.',
  defaultSeverity: 'warning',
  fixable: false,
  check(ctx) {
    const names = new Set<string>();
    const known: Known = { memoryBasenames: new Set() };
    for (const f of ctx.files) {
      names.add(f.name.trim().toLowerCase());
      names.add(fileStem(f.path).toLowerCase());
    }
    for (const p of ctx.memoryPaths) {
      known.memoryBasenames.add(p.slice(p.lastIndexOf('/') + 1));
      names.add(fileStem(p).toLowerCase());
    }
    const out: Report[] = [];
    for (const file of ctx.files) {
      out.push(...linkReports(ctx, file, names));
      // A line is looked at only when it holds a slash or a backtick: a body with neither is never split.
      if (!ctx.repo || !(file.body.includes('/') || file.body.includes('`'))) continue;
      for (const { line, text, fenced } of bodyLines(file)) {
        if (fenced || !(text.includes('/') || text.includes('`'))) continue;
        for (const mention of mentionedPaths(text)) {
          if (exists(ctx, file, mention, known)) continue;
          out.push({ file: file.path, line, column: mention.column, message: `mentions ${mention.path}, which does not exist in the repository; verify before use, then update or remove the reference` });
        }
      }
    }
    return out;
  },
};

export default rule;
