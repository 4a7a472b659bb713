/**
 * A flush's Changed Files from every input — paths the user gave, files the transcript shows the
 * session changed, git's commits and work tree — as one entry per file, shown relative to the
 * project, under its final path with what happened to it (moved from, deleted, outside). Pure: the
 * caller says which paths are files.
 */
import { isAbsolute, join, resolve, sep } from 'node:path';
import { isInside, relativeInside } from '../store/paths.js';
import type { FactFile } from '../transcript/index.js';

/** A changed file from any input, before its line is written. */
export interface ChangedEntry {
  /** As shown: relative to the project base where possible. */
  display: string;
  /** Absolute path, for the one-line summary (when it is a readable file) and for de-duplication. */
  abs?: string;
  note?: string;
}

/** A git change (sources/git.ts's shape, restated so this core imports no source). */
interface GitFileChange {
  path: string;
  status: string;
  from?: string;
}

/** Where paths are shown from, and what is left out. */
export interface ChangedScope {
  /** The project base: git's top level, else the working directory. */
  base: string;
  /** The working directory the user's paths are relative to. */
  cwd: string;
  /** The memory directory: its own files are never listed. */
  root: string;
  /** The user's home, for a given `~/…` path. */
  home?: string;
}

/** Relative to the project base (with `/`) when below it, else absolute. */
const shown = (scope: ChangedScope, abs: string) => relativeInside(scope.base, abs) || abs;

const OUTSIDE = '(outside the working directory)';

/** The path an item starts with ("/etc/hosts — …", "~/.ssh/config") when it is outside the project, made absolute, and the rest. */
function outsideItem(item: string, scope: ChangedScope): { abs: string; rest: string } | undefined {
  const [, first, rest] = /^(\S+)(.*)$/s.exec(item.trim()) ?? [];
  if (first === undefined) return undefined;
  const home = first.startsWith('~/') && scope.home ? join(scope.home, first.slice(2)) : undefined;
  if (!home && !isAbsolute(first) && !first.startsWith('../')) return undefined;
  const abs = home ?? resolve(scope.cwd, first);
  return isInside(scope.base, abs) ? undefined : { abs, rest: rest.replace(OUTSIDE, '').trimEnd() };
}

/**
 * Paths the user gave (`--changed`, `changedFiles` in --from): a bare path to a file gets a summary;
 * one outside the project is shown absolute and flagged, as the transcript's are (never read); other
 * text is kept as written.
 */
export function givenEntries(items: string[], scope: ChangedScope, isFile: (abs: string) => boolean): ChangedEntry[] {
  return items.map((item) => {
    const outside = outsideItem(item, scope);
    if (outside) return { display: outside.abs, note: `${OUTSIDE}${outside.rest}` };
    const abs = /\s/.test(item) ? undefined : resolve(scope.cwd, item);
    return abs && isFile(abs) ? { display: item, abs } : { display: item };
  });
}

/** Files the transcript shows the session changed; the memory directory's own files left out. */
export function transcriptEntries(files: FactFile[], scope: ChangedScope): ChangedEntry[] {
  const out: ChangedEntry[] = [];
  for (const file of files) {
    const abs = file.abs ?? resolve(scope.base, file.path);
    if (isInside(scope.root, abs)) continue;
    // relative to the project base, else to the session's own working directory; outside both: absolute, flagged
    const relative = shown(scope, abs);
    const display = relative !== abs ? relative : file.outside ? abs : file.path;
    const moved = file.movedTo ? `(moved out of the project to ${file.movedTo})` : file.from ? `(moved from ${file.from})` : undefined;
    const note = moved ?? (file.deleted ? '(deleted)' : file.outside && display === abs && isAbsolute(abs) ? OUTSIDE : undefined);
    out.push({ display, abs: file.deleted || file.movedTo ? undefined : abs, note });
  }
  return out;
}

/** git's changes (commits of the session, the work tree), relative to its top level `gitRoot`. */
export function gitEntries(changes: GitFileChange[], gitRoot: string, scope: ChangedScope): ChangedEntry[] {
  const out: ChangedEntry[] = [];
  // git's paths are normalised and relative to its top level: with the memory directory below that
  // top, a prefix test says the same as isInside (whose path.relative resolves both paths each call).
  const memoryAt = sep === '/' ? relativeInside(gitRoot, scope.root) : undefined;
  const inMemory = (path: string, abs: string) => (memoryAt === undefined ? isInside(scope.root, abs) : memoryAt === '' || path === memoryAt || path.startsWith(`${memoryAt}/`));
  for (const change of changes) {
    const abs = resolve(gitRoot, change.path);
    if (inMemory(change.path, abs)) continue;
    const note = change.status === 'added' || change.status === 'untracked' ? '(new)' : change.status === 'deleted' ? '(deleted)' : change.from ? `(${change.status} from ${change.from})` : undefined;
    out.push({ display: change.path, abs: change.status === 'deleted' ? undefined : abs, note });
  }
  return out;
}

/** One entry per file: where it was first mentioned, with the last (most detailed, e.g. git's) details; files outside the project listed after the others. */
export function uniqueEntries(entries: ChangedEntry[]): ChangedEntry[] {
  const byKey = new Map<string, ChangedEntry>();
  for (const entry of entries) {
    const key = entry.abs ?? entry.display;
    const seen = byKey.get(key);
    // a note from the transcript (moved from …) is kept when git's entry has none
    byKey.set(key, seen && !entry.note && seen.note ? { ...entry, note: seen.note } : entry);
  }
  const all = [...byKey.values()];
  const outside = (e: ChangedEntry) => isAbsolute(e.display);
  return [...all.filter((e) => !outside(e)), ...all.filter(outside)];
}

/** An entry's line: the path, its note, and a one-line summary of the file when there is one. */
export function changedLine(entry: ChangedEntry, summary?: string): string {
  return `${entry.display}${entry.note ? ` ${entry.note}` : ''}${summary ? ` — ${summary}` : ''}`;
}

/** A Changed Files line's path: the text before its note (` (new)`) or summary (` — …`). */
function linePath(line: string): string {
  return line.split(/ (?:—|\()/)[0].trim();
}

/** A path's folder at `depth` (`a/b/` for depth 2), or undefined when the file sits higher. */
function folderAt(path: string, depth: number): string | undefined {
  const parts = path.split('/');
  const lead = path.startsWith('/') ? 1 : 0;
  return parts.length - 1 - lead >= depth ? `${parts.slice(0, depth + lead).join('/')}/` : undefined;
}

const folderDepth = (path: string) => path.split('/').length - 1 - (path.startsWith('/') ? 1 : 0);

/**
 * Changed Files lines in fewer lines, every file still covered: level 1 drops the one-line
 * summaries; each level after groups the files of one folder (two or more) into `folder/ (N files)`,
 * from the deepest folders up to the top ones. Files outside the project stay listed after the
 * others.
 */
export function groupChangedLines(lines: string[], level: number): string[] {
  if (level <= 0) return lines;
  const bare = lines.map((l) => l.replace(/ — .*$/, ''));
  if (level === 1) return bare;
  const depth = Math.max(1, maxDepth(lines) - (level - 2));
  const groups = new Map<string, number>();
  for (const line of bare) {
    const folder = folderAt(linePath(line), depth);
    if (folder) groups.set(folder, (groups.get(folder) ?? 0) + 1);
  }
  const out: string[] = [];
  const done = new Set<string>();
  for (const line of bare) {
    const folder = folderAt(linePath(line), depth);
    const count = folder ? groups.get(folder) ?? 0 : 0;
    if (!folder || count < 2) out.push(line);
    else if (!done.has(folder)) {
      done.add(folder);
      out.push(`${folder} (${count} files)`);
    }
  }
  return [...out.filter((l) => !l.startsWith('/')), ...out.filter((l) => l.startsWith('/'))];
}

function maxDepth(lines: string[]): number {
  return Math.max(1, ...lines.map((l) => folderDepth(linePath(l))));
}

/** How many grouping levels Changed Files lines have (summaries dropped, then one per folder depth). */
export function changedGroupLevels(lines: string[]): number {
  return 1 + maxDepth(lines);
}
