import { dirname, isAbsolute, join, resolve } from 'node:path';
import { MemctxError } from '../errors.js';
import { shellWord } from '../text/shell.js';
import { isInside, isSymlink, realExisting, relativeInside } from './paths.js';
const { existsSync, readFileSync, readdirSync, readlinkSync, statSync } = process.getBuiltinModule('node:fs');

const MEMORY_DIR_NAME = '.memory';

export interface FindOptions {
  /** `--dir`, relative to cwd. */
  dir?: string;
  /** `--claude`: Claude Code's auto-memory directory for cwd. */
  claude?: boolean;
  cwd: string;
  env: Record<string, string | undefined>;
  home: string;
  /** When false (the default), the directory must exist. */
  allowMissing?: boolean;
  /** init: without a name, `.memory` in the working directory itself (no walk up). */
  here?: boolean;
  /** Hooks and the MCP server: the root stays inside the project even when --dir, --claude or MEMCTX_DIR names it. */
  confined?: boolean;
}

/**
 * The project Claude Code keys its auto memory on: the git repository's main working tree (so
 * worktrees and subdirectories share one memory), else the working directory itself.
 */
function claudeProjectRoot(cwd: string): string {
  let current = resolve(cwd);
  for (;;) {
    const dotGit = join(current, '.git');
    if (existsSync(dotGit)) {
      if (statSync(dotGit).isDirectory()) return current;
      // A linked worktree: `.git` is a file naming <main>/.git/worktrees/<name>.
      const gitdir = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
      const main = gitdir ? /^(.*)[\\/]\.git[\\/]worktrees[\\/][^\\/]+$/.exec(resolve(current, gitdir))?.[1] : undefined;
      return main ?? current;
    }
    const parent = dirname(current);
    if (parent === current) return resolve(cwd);
    current = parent;
  }
}

/**
 * Claude Code's configuration directory: CLAUDE_CONFIG_DIR when set, else ~/.claude.
 */
function claudeConfigDir(env: Record<string, string | undefined>, home: string): string {
  const dir = env.CLAUDE_CONFIG_DIR?.trim();
  return dir ? resolve(dir.replace(/^~(?=[\\/]|$)/, home)) : join(home, '.claude');
}

const MAX_SANITIZED_LENGTH = 200;

/** Claude Code's 32-bit string hash (`djb2Hash`: h = h * 31 + code unit, wrapped to a signed 32-bit integer). */
function claudeHash(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = ((hash << 5) - hash + text.charCodeAt(i)) | 0;
  return hash;
}

/**
 * A project path as Claude Code names its directory under projects/: every character that is not an
 * ASCII letter or digit becomes `-`; a name over 200 characters is cut to 200 and given `-` and a hash
 * of the whole path in base 36. Source: Claude Code's utils/sessionStoragePortable.ts (`sanitizePath`,
 * `djb2Hash`, `findProjectDir`), read in a public copy of its source: the Node build hashes with
 * `Math.abs(djb2Hash(path)).toString(36)`, the Bun-built CLI with `Bun.hash`, so Claude Code itself
 * falls back to the directory that starts with the 200-character prefix when the exact name is absent
 * (see `claudeProjectDir`).
 */
export function sanitizeProjectPath(path: string): string {
  const sanitized = path.replace(/[^a-zA-Z0-9]/g, '-');
  if (sanitized.length <= MAX_SANITIZED_LENGTH) return sanitized;
  return `${sanitized.slice(0, MAX_SANITIZED_LENGTH)}-${Math.abs(claudeHash(path)).toString(36)}`;
}

/** The directory under `projects` for a project path, as Claude Code finds it (a long name by its prefix when the hash differs). */
function projectDirFor(projects: string, root: string): string {
  const exact = join(projects, sanitizeProjectPath(root));
  if (exact.length - projects.length - 1 <= MAX_SANITIZED_LENGTH || isDir(exact)) return exact;
  const prefix = `${sanitizeProjectPath(root).slice(0, MAX_SANITIZED_LENGTH)}-`;
  try {
    const match = readdirSync(projects, { withFileTypes: true }).find((d) => d.isDirectory() && d.name.startsWith(prefix));
    return match ? join(projects, match.name) : exact;
  } catch {
    return exact;
  }
}

/**
 * The `autoMemoryDirectory` setting, as Claude Code reads it: from the user's settings.json in its
 * configuration directory and the project's own .claude/settings.local.json (the local file wins).
 * The shared, committed .claude/settings.json is not trusted with it (a repository must not point
 * the memory at ~/.ssh), and a relative path is ignored; `~/` is the home directory.
 */
function autoMemoryDirectory(root: string, env: Record<string, string | undefined>, home: string): string | undefined {
  let found: string | undefined;
  for (const file of [join(claudeConfigDir(env, home), 'settings.json'), join(root, '.claude', 'settings.local.json')]) {
    let value: unknown;
    try {
      value = (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>)?.autoMemoryDirectory;
    } catch {
      continue;
    }
    if (typeof value !== 'string' || !value.trim()) continue;
    const expanded = value.trim().replace(/^~(?=[\\/]|$)/, home);
    if (isAbsolute(expanded)) found = resolve(expanded);
  }
  return found;
}

/**
 * Claude Code's directory for a project's sessions (transcripts): <config dir>/projects/<project
 * path, sanitized>. The project is the git repository's root; a directory keyed on the working
 * directory itself (as older versions did) is used when only it exists.
 */
export function claudeProjectDir(cwd: string, home: string, env: Record<string, string | undefined> = {}): string {
  const projects = join(claudeConfigDir(env, home), 'projects');
  const byRepo = projectDirFor(projects, claudeProjectRoot(cwd));
  const byCwd = projectDirFor(projects, resolve(cwd));
  return !isDir(byRepo) && isDir(byCwd) ? byCwd : byRepo;
}

/**
 * Claude Code keeps a project's auto memory in the `autoMemoryDirectory` setting when one is set,
 * else in <config dir>/projects/<project>/memory (see `claudeProjectDir`).
 */
export function claudeMemoryDir(cwd: string, home: string, env: Record<string, string | undefined> = {}): string {
  return autoMemoryDirectory(claudeProjectRoot(cwd), env, home) ?? join(claudeProjectDir(cwd, home, env), 'memory');
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Walk up from `from` to the first directory holding `.memory/`, the way git finds `.git`. */
export function walkUpForMemoryDir(from: string): string | undefined {
  let current = resolve(from);
  for (;;) {
    const candidate = join(current, MEMORY_DIR_NAME);
    if (isDir(candidate)) return candidate;
    const parent = dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

/** The memory directory as located: named (--dir, --claude, MEMCTX_DIR) or found in the folder `from`. */
interface Located {
  dir: string;
  named: boolean;
  from: string;
}

function locate(options: FindOptions): Located {
  const explicit = options.dir ?? (options.claude ? claudeMemoryDir(options.cwd, options.home, options.env) : undefined) ?? options.env.MEMCTX_DIR;
  if (explicit) {
    const dir = resolve(options.cwd, explicit);
    if (options.allowMissing || isDir(dir)) return { dir, named: true, from: options.cwd };
    if (existsSync(dir)) throw new MemctxError(`memory directory ${dir} is not a directory`, { hint: 'move that file away, or pass --dir PATH to a memory directory' });
    const init = options.dir !== undefined ? `memctx --dir ${shellWord(options.dir)} init` : options.claude ? 'memctx --claude init' : 'memctx init';
    throw new MemctxError(`memory directory ${dir} does not exist`, { hint: `run \`${init}\` to create it, or pass --dir PATH to an existing memory directory` });
  }
  const found = options.here ? undefined : walkUpForMemoryDir(options.cwd);
  if (found) return { dir: found, named: false, from: dirname(found) };
  if (options.allowMissing) return { dir: join(resolve(options.cwd), MEMORY_DIR_NAME), named: false, from: options.cwd };
  throw new MemctxError(`no ${MEMORY_DIR_NAME}/ directory in ${resolve(options.cwd)} or any parent`, { hint: 'run `memctx init` to create one, or pass --dir PATH' });
}

/** The memory directory from --dir, --claude, MEMCTX_DIR, or the walk up; an error that says what to do. */
export function findMemoryDir(options: FindOptions): string {
  const located = locate(options);
  keepInsideProject(located, Boolean(options.confined));
  return located.dir;
}

/** The top of the work tree holding `from` (a repository, linked worktree or submodule: the nearest `.git` entry), found without running git. */
function gitTopByFiles(from: string): string | undefined {
  for (let at = resolve(from); ; at = dirname(at)) {
    if (existsSync(join(at, '.git'))) return at;
    if (dirname(at) === at) return undefined;
  }
}

/**
 * The one rule for where the memory root may be: its real path stays inside the project (the git
 * top level of the folder it was found in or, for a named one, of the working directory; outside
 * git, that folder itself), since a cloned repository can commit `.memory -> ../..`. Only a folder
 * the user names on the command line beyond the project may be elsewhere; `confined` (hooks and
 * the MCP server, which a repository's committed settings start) allows not even that.
 */
function keepInsideProject({ dir, named, from }: Located, confined: boolean): void {
  const project = gitTopByFiles(from) ?? resolve(from);
  if (named && !confined && !isInside(project, dir)) return;
  const real = realExisting(dir);
  if (real !== undefined && isInside(realExisting(project) ?? project, real)) return;
  throw rootOutside(dir, project, real, confined);
}

/** The first symbolic link on the way from `project` down to `dir`, and the target it names. */
function linkOnTheWay(project: string, dir: string): { link: string; target: string } | undefined {
  const rel = relativeInside(project, dir);
  let at = project;
  for (const part of rel === undefined ? [] : rel.split('/').filter(Boolean)) {
    at = join(at, part);
    if (isSymlink(at)) return { link: at, target: readlinkSync(at) };
  }
  return undefined;
}

function rootOutside(dir: string, project: string, real: string | undefined, confined: boolean): MemctxError {
  const way = linkOnTheWay(project, dir);
  const where = real === undefined ? ', a symbolic link loop' : real !== dir && real !== way?.target ? ` (real path ${real})` : '';
  const why = way ? `: ${way.link === dir ? 'it' : way.link} is a symbolic link to ${way.target}${where}` : where;
  const fix = way ? `replace ${way.link} with a real folder, or a link to one inside the project` : 'move the memory directory into the project';
  const hint = confined
    ? `hooks and the MCP server, which a repository's committed settings start, use only a memory directory inside the project: ${fix}`
    : `a cloned repository can commit such a link, so memctx does not follow it: ${fix}; to use ${real ?? dir} anyway, name it yourself: memctx --dir ${shellWord(real ?? dir)} COMMAND`;
  return new MemctxError(`memory directory ${dir} leaves the project ${project}${why}`, { hint });
}
