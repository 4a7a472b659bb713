/**
 * Where memctx keeps a memory directory's machine state (caches, access counts, pending summaries,
 * the flush log, checkpoints, the write lock): never in the work tree, where a cloned repository
 * could plant it. Inside git: `<git dir>/memctx/` (git never tracks or clones it). Outside git: a
 * private per-user folder, `$XDG_CACHE_HOME/memctx/<hash of the memory root>/` (else ~/.cache).
 * Every folder is created 0700 and checked before use: a real directory, owned by this user, not
 * writable by others; a `.memctx/` inside the memory directory is never read or written.
 */
import type { Stats } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { INDEX_FILE, PENDING_DIR } from '../store/layout.js';
const { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, realpathSync, rmSync, statSync } = process.getBuiltinModule('node:fs');

/** The name of memctx's folder inside the git directory or the per-user cache folder. */
const STATE_NAME = 'memctx';

export interface StateOptions {
  /** Create the folder even where the memory directory has no MEMORY.md yet (the write lock). */
  always?: boolean;
  env?: Record<string, string | undefined>;
}

export interface StatePlace {
  /** The state folder, when it is usable. */
  dir?: string;
  /** Why there is none (shown once as a warning by commands that cache). */
  reason?: string;
}

const places = new Map<string, StatePlace>();

/**
 * The memory directory's state folder, created and checked, or undefined (read-only git directory, a
 * folder someone else owns...). Caches are optional: callers skip them rather than fail. Without
 * `always`, a memory directory with no MEMORY.md gets none, so a read-only command pointed at any
 * folder (`--dir /`) leaves no trace.
 */
export function stateDir(root: string, options: StateOptions = {}): string | undefined {
  return statePlace(root, options).dir;
}

/** stateDir with the reason when there is none. */
export function statePlace(root: string, options: StateOptions = {}): StatePlace {
  if (!options.always && !lstatSync(join(root, INDEX_FILE), { throwIfNoEntry: false })?.isFile()) return { reason: `${join(root, INDEX_FILE)} does not exist` };
  const key = resolve(root);
  let place = places.get(key);
  if (!place?.dir || unsafeFolder(place.dir) !== undefined) {
    place = findPlace(key, options.env ?? process.env);
    places.set(key, place);
  }
  return place;
}

/** Forget the places found so far (tests that change HOME or XDG_CACHE_HOME). */
export function forgetStatePlaces(): void {
  places.clear();
}

function findPlace(root: string, env: Record<string, string | undefined>): StatePlace {
  let real: string;
  try {
    real = realpathSync(root);
  } catch {
    return { reason: `${root} cannot be resolved` };
  }
  // One folder per memory directory: a repository may hold several (a monorepo's packages).
  const git = gitDirOf(real);
  if (git) return ownFolder(git.gitDir, STATE_NAME, folderName(relative(git.top, real)));
  return perUser(sha256(real).slice(0, 16), env);
}

/** `memctx/NAME` in the first per-user cache folder that is safe to use (XDG_CACHE_HOME, then ~/.cache). */
function perUser(name: string, env: Record<string, string | undefined>): StatePlace {
  const reasons: string[] = [];
  for (const base of cacheHomes(env)) {
    const place = ownFolder(base, STATE_NAME, name);
    if (place.dir) return place;
    reasons.push(place.reason ?? base);
  }
  return { reason: reasons.join('; ') || 'no home folder for the per-user cache (set XDG_CACHE_HOME to an absolute path)' };
}

/**
 * A private folder of this user's for machine-wide state (Node's compile cache): `NAME` in memctx's
 * per-user cache folder, created 0700 and checked; undefined when none can be had.
 */
export function userCacheDir(name: string, env: Record<string, string | undefined> = process.env): string | undefined {
  return perUser(name, env).dir;
}

/**
 * The per-user cache folders to try: XDG_CACHE_HOME when it is absolute (the XDG rule), then
 * ~/.cache (also when XDG_CACHE_HOME names a folder others can change).
 */
function cacheHomes(env: Record<string, string | undefined>): string[] {
  const xdg = env.XDG_CACHE_HOME;
  const home = env.HOME && isAbsolute(env.HOME) ? env.HOME : homedir();
  return [...(xdg && isAbsolute(xdg) ? [xdg] : []), ...(home && isAbsolute(home) ? [join(home, '.cache')] : [])];
}

/**
 * The git directory of the work tree holding `dir`: the `.git` folder at or above it, or the folder a
 * `.git` file names (a linked worktree or a submodule). Found without running git; undefined outside
 * git or when what `.git` names is not a git directory (it holds no HEAD).
 */
function gitDirOf(dir: string): { gitDir: string; top: string } | undefined {
  for (let at = dir; ; at = dirname(at)) {
    const dotGit = join(at, '.git');
    const stat = lstatSync(dotGit, { throwIfNoEntry: false });
    if (stat?.isDirectory()) return isGitDir(dotGit) ? { gitDir: dotGit, top: at } : undefined;
    if (stat?.isFile()) {
      const named = gitFileTarget(dotGit);
      return named !== undefined && isGitDir(named) ? { gitDir: named, top: at } : undefined;
    }
    if (dirname(at) === at) return undefined;
  }
}

function gitFileTarget(file: string): string | undefined {
  try {
    const named = /^gitdir:\s*(.+?)\s*$/m.exec(readStateFile(dirname(file), basename(file), 4096) ?? '')?.[1];
    return named ? resolve(dirname(file), named) : undefined;
  } catch {
    return undefined;
  }
}

function isGitDir(dir: string): boolean {
  return lstatSync(dir, { throwIfNoEntry: false })?.isDirectory() === true && lstatSync(join(dir, 'HEAD'), { throwIfNoEntry: false })?.isFile() === true;
}

const uid = () => process.getuid?.();

/**
 * The state folder's name for a memory directory at `rel` in its work tree: the path itself,
 * percent-encoded where it is not a plain name character (so `.memory`, `packages%2Fapp%2F.memory`;
 * the work tree's top is `%2E`), or a hash when that would be too long for a file name.
 */
function folderName(rel: string): string {
  const name = rel === '' ? '%2E' : rel.replace(/[^A-Za-z0-9._-]/g, (c) => encodeURIComponent(c).replace(/[!'()*]/g, (x) => `%${x.charCodeAt(0).toString(16).toUpperCase()}`));
  return name.length <= 120 ? name : `%23${sha256(rel).slice(0, 16)}`;
}

/** node:crypto loaded on first use (a hook that finds its state folder in git pays for it once per run). */
function sha256(text: string): string {
  const crypto = process.getBuiltinModule('node:crypto');
  return crypto.createHash('sha256').update(text).digest('hex');
}

/** True when a folder's parent lets only its owner (or root, or no one but the sticky owner) replace entries. */
function safeParent(stat: Stats): boolean {
  const me = uid();
  if (me === undefined) return true;
  const othersWrite = (stat.mode & 0o022) !== 0;
  return (stat.uid === me || stat.uid === 0) && (!othersWrite || (stat.mode & 0o1000) !== 0);
}

/** A folder of this user that no one else may write or replace: why not, or undefined when it is. */
function unsafeFolder(dir: string): string | undefined {
  const stat = lstatSync(dir, { throwIfNoEntry: false });
  if (!stat) return `${dir} does not exist`;
  if (stat.isSymbolicLink()) return `${dir} is a symbolic link`;
  if (!stat.isDirectory()) return `${dir} is not a directory`;
  const me = uid();
  if (me !== undefined && stat.uid !== me) return `${dir} belongs to another user (uid ${stat.uid})`;
  if ((stat.mode & 0o022) !== 0) return `${dir} is writable by other users`;
  return undefined;
}

/** `parent/name/...`, each created 0700 when missing and checked (the parent too: no one else may swap it). */
function ownFolder(parent: string, name: string, ...more: string[]): StatePlace {
  // The parent is followed if it is a link: the git directory or the user's own cache folder setting.
  let parentStat: Stats | undefined;
  try {
    parentStat = statSync(parent);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return { reason: `cannot use ${parent} (${(err as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  if (!parentStat) {
    try {
      mkdirSync(parent, { recursive: true, mode: 0o700 });
    } catch (err) {
      return { reason: `cannot create ${parent} (${(err as NodeJS.ErrnoException).code ?? 'error'})` };
    }
  } else if (!parentStat.isDirectory()) return { reason: `${parent} is not a directory` };
  else if (!safeParent(parentStat)) return { reason: `${parent} can be changed by other users` };
  const dir = join(parent, name);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST') return { reason: `cannot create ${dir} (${code ?? 'error'})` };
  }
  const why = unsafeFolder(dir);
  if (why) return { reason: why };
  return more.length === 0 ? { dir } : ownFolder(dir, more[0], ...more.slice(1));
}

/** Where `flush --hook` keeps summaries it could not write in time: `pending/` in the state folder. */
export function pendingDir(root: string): string | undefined {
  const dir = stateDir(root, { always: true });
  return dir === undefined ? undefined : join(dir, PENDING_DIR);
}

/** A state file's JSON value; undefined when there is no state folder, or the file is missing, unreadable or not JSON. */
export function readStateJson(dir: string | undefined, name: string, maxBytes?: number): unknown {
  const text = dir === undefined ? undefined : readStateFile(dir, name, maxBytes);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * A state file's text, read without following a link and only from a regular file (a FIFO never
 * blocks); undefined when it is missing or unreadable.
 */
export function readStateFile(dir: string, name: string, maxBytes = 1024 * 1024 * 1024): string | undefined {
  return readStateBytes(dir, name, maxBytes)?.toString('utf8');
}

/** readStateFile's bytes, undecoded (a binary state file). */
export function readStateBytes(dir: string, name: string, maxBytes = 1024 * 1024 * 1024): Buffer | undefined {
  return withStateFile(dir, name, maxBytes, (fd) => readFileSync(fd));
}

/**
 * `read(fd, stat)` of a state file opened as readStateFile opens it (no link followed, a regular file
 * of at most `maxBytes`), closed after; undefined when it is missing, not such a file, or `read` throws.
 */
export function withStateFile<T>(dir: string, name: string, maxBytes: number, read: (fd: number, stat: Stats) => T): T | undefined {
  let fd: number;
  try {
    fd = openSync(join(dir, name), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > maxBytes) return undefined;
    return read(fd, stat);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Remove a state file an older build kept (a link at its name is removed, not followed); one that cannot go stays. */
export function removeStateFile(dir: string, name: string): void {
  try {
    rmSync(join(dir, name), { force: true });
  } catch {
    // a folder at its name, or no permission: left as it is
  }
}
