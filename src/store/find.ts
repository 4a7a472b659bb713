import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { MemctxError } from './errors.js';
import { shellWord } from '../text/shell.js';

export const MEMORY_DIR_NAME = '.memory';

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
}

/**
 * The project Claude Code keys its auto memory on: the git repository's main working tree (so
 * worktrees and subdirectories share one memory), else the working directory itself.
 */
export function claudeProjectRoot(cwd: string): string {
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

function claudeDirFor(root: string, home: string): string {
  return join(home, '.claude', 'projects', root.replace(/[^A-Za-z0-9]/g, '-'), 'memory');
}

/**
 * Claude Code keeps a project's auto memory in ~/.claude/projects/<project path with every
 * non-alphanumeric character as ->/memory. The project is the git repository's root; a directory
 * keyed on the working directory itself (as older versions did) is used when only it exists.
 */
export function claudeMemoryDir(cwd: string, home: string): string {
  const byRepo = claudeDirFor(claudeProjectRoot(cwd), home);
  const byCwd = claudeDirFor(resolve(cwd), home);
  return !isDir(byRepo) && isDir(byCwd) ? byCwd : byRepo;
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

/** The memory directory from --dir, --claude, MEMCTX_DIR, or the walk up; an error that says what to do. */
export function findMemoryDir(options: FindOptions): string {
  const explicit = options.dir ?? (options.claude ? claudeMemoryDir(options.cwd, options.home) : undefined) ?? options.env.MEMCTX_DIR;
  if (explicit) {
    const dir = resolve(options.cwd, explicit);
    if (options.allowMissing || isDir(dir)) return dir;
    if (existsSync(dir)) throw new MemctxError(`memory directory ${dir} is not a directory`, { hint: 'move that file away, or pass --dir PATH to a memory directory' });
    const init = options.dir !== undefined ? `memctx --dir ${shellWord(options.dir)} init` : options.claude ? 'memctx --claude init' : 'memctx init';
    throw new MemctxError(`memory directory ${dir} does not exist`, { hint: `run \`${init}\` to create it, or pass --dir PATH to an existing memory directory` });
  }
  const found = walkUpForMemoryDir(options.cwd);
  if (found) return found;
  if (options.allowMissing) return join(resolve(options.cwd), MEMORY_DIR_NAME);
  throw new MemctxError(`no ${MEMORY_DIR_NAME}/ directory in ${resolve(options.cwd)} or any parent`, { hint: 'run `memctx init` to create one, or pass --dir PATH' });
}
