/** What code a memory is about: its `paths:` frontmatter, else the repository paths it links or names. */
import { isExternal, joinPath, markdownLinks } from '../markdown/links.js';
import type { MemoryFile } from '../store/types.js';
import { mentionedPaths, repoPathOf } from '../lint/rules/content/broken-reference.js';
import { bodyLines } from '../lint/text.js';
import type { RepoView } from '../lint/types.js';

/** At most this many anchors per memory (a list of every file is not an anchor). */
const MAX_ANCHORS = 50;

export interface Anchors {
  /** Repository paths (files or folders), relative to the repository root. */
  paths: string[];
  /** Repository globs (`src/auth/**`), relative to the repository root. */
  globs: string[];
  /** `paths:` entries that leave the repository, as written. */
  outside: string[];
  /** True when the anchors come from `paths:`. */
  declared: boolean;
}

const GLOB = /[*?[]/;

/** `paths:` as a list of strings (a string or a list), or undefined when the key is absent. */
function declaredPaths(file: MemoryFile): string[] | undefined {
  const value = file.data.paths;
  if (value === undefined || value === null) return undefined;
  const list = Array.isArray(value) ? value : [value];
  return list.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim());
}

function fromDeclared(entries: string[]): Anchors {
  const out: Anchors = { paths: [], globs: [], outside: [], declared: true };
  for (const entry of entries.slice(0, MAX_ANCHORS)) {
    const path = entry.startsWith('/') || entry.startsWith('~') || /^[a-z]:[\\/]/i.test(entry) ? undefined : joinPath('', entry.replace(/\\/g, '/').replace(/^\.\//, ''));
    if (path === undefined || path === '') out.outside.push(entry);
    else (GLOB.test(path) ? out.globs : out.paths).push(path);
  }
  return out;
}

/** True when a repository path is the memory directory or inside it (memories are not code). */
function inMemoryDir(repo: RepoView, path: string): boolean {
  const prefix = repo.memoryPrefix;
  return prefix !== undefined && (prefix === '' || path === prefix || path.startsWith(`${prefix}/`));
}

/** What a memory's text names, before it is resolved against the repository: plain JSON, kept per file between lint runs. */
export interface TextMentions {
  mentions: { path: string; bare: boolean }[];
  /** Link targets (not to other memories by name), as written. */
  links: string[];
}

/** The paths a memory's body names in prose or backticks, and the targets it links (fenced code left out). */
export function textMentions(file: MemoryFile): TextMentions {
  const mentions: TextMentions['mentions'] = [];
  if (file.body.includes('/') || file.body.includes('`')) {
    for (const { text, fenced } of bodyLines(file)) {
      if (fenced || !(text.includes('/') || text.includes('`'))) continue;
      for (const m of mentionedPaths(text)) mentions.push({ path: m.path, bare: m.bare });
    }
  }
  const links = markdownLinks(file.body).filter((l) => l.kind !== 'wiki' && !isExternal(l.raw)).map((l) => l.target);
  return { mentions, links };
}

function fromText(file: MemoryFile, repo: RepoView, named: TextMentions): Anchors {
  const found = new Set<string>();
  const keep = (path: string | undefined) => {
    if (path !== undefined && path !== '' && !inMemoryDir(repo, path)) found.add(path);
  };
  // A path that is gone still anchors: the commits that deleted or moved it are drift. A bare name anchors a file at the root.
  for (const mention of named.mentions) keep(mention.bare ? (repo.files.has(mention.path) ? mention.path : undefined) : repoPathOf(repo, file, mention) ?? joinPath('', mention.path.replace(/\/$/, '')));
  const dir = file.path.includes('/') ? file.path.slice(0, file.path.lastIndexOf('/')) : '';
  for (const target of repo.memoryPrefix === undefined ? [] : named.links) {
    const path = joinPath(joinPath(repo.memoryPrefix!, dir) ?? '', target);
    if (path !== undefined && repo.files.has(path.replace(/\/$/, ''))) keep(path);
  }
  return { paths: [...found].slice(0, MAX_ANCHORS), globs: [], outside: [], declared: false };
}

/** The memory's anchors; a memory naming no code has none. `named` is textMentions(file), when kept from an earlier run. */
export function memoryAnchors(file: MemoryFile, repo: RepoView, named?: TextMentions): Anchors {
  const declared = declaredPaths(file);
  return declared === undefined ? fromText(file, repo, named ?? textMentions(file)) : fromDeclared(declared);
}

/** A glob as a regular expression over repository paths: `**` any folders, `*` and `?` within one name. */
export function globRegExp(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      out += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else out += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}(?:/.*)?$`);
}
