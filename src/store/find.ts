import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { MemctxError } from './errors.js';

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

/** Claude Code keeps a project's memory in ~/.claude/projects/<cwd with non-alphanumerics as ->/memory. */
export function claudeMemoryDir(cwd: string, home: string): string {
  return join(home, '.claude', 'projects', resolve(cwd).replace(/[^A-Za-z0-9]/g, '-'), 'memory');
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
    const what = existsSync(dir) ? 'is not a directory' : 'does not exist';
    throw new MemctxError(`memory directory ${dir} ${what}`, { hint: 'run `memctx init` or pass --dir PATH to an existing memory directory' });
  }
  const found = walkUpForMemoryDir(options.cwd);
  if (found) return found;
  if (options.allowMissing) return join(resolve(options.cwd), MEMORY_DIR_NAME);
  throw new MemctxError(`no ${MEMORY_DIR_NAME}/ directory in ${resolve(options.cwd)} or any parent`, { hint: 'run `memctx init` to create one, or pass --dir PATH' });
}
