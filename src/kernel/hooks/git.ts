import { basename, dirname, join, resolve } from 'node:path';
import { EXIT_USAGE, MemctxError } from '../errors.js';
import { relativeInside } from '../store/paths.js';
import { GitError, gitTopLevel as topLevel, gitTopLevelWith as topLevelWith, type Env } from '../sources/git.js';
const { existsSync, realpathSync } = process.getBuiltinModule('node:fs');

/** The top of the working tree holding cwd; a usage error (exit 2) outside a git working tree. */
export function gitTopLevel(cwd: string, env: Env): string {
  return inWorkTree(cwd, () => topLevel(cwd, env));
}

/** gitTopLevel, with git's answers to `asks` from the same call when cwd is the top (sources/git.ts gitTopLevelWith). */
export function gitTopLevelWith(cwd: string, env: Env, asks: string[][]): { top: string; answers?: string[] } {
  return inWorkTree(cwd, () => topLevelWith(cwd, env, asks));
}

/** ask's answer; git's "not a work tree" as a usage error. */
function inWorkTree<T>(cwd: string, ask: () => T): T {
  try {
    return ask();
  } catch (err) {
    if (!(err instanceof GitError)) throw err;
    const said = err.stderr.trim().replace(/^fatal:\s*/, '');
    throw new MemctxError(`not in a git working tree: ${resolve(cwd)} (${said || 'git rev-parse failed'})`, {
      exitCode: EXIT_USAGE,
      hint: 'run this inside a git repository (`git init` creates one)',
    });
  }
}

/** The real path of p, resolving the part of it that exists (p itself may not exist yet). */
export function realPathOf(p: string): string {
  const abs = resolve(p);
  if (existsSync(abs)) return realpathSync(abs);
  const parent = dirname(abs);
  return parent === abs ? abs : join(realPathOf(parent), basename(abs));
}

/** dir relative to top with `/` separators ('' for top itself), or undefined when dir is outside top. */
export function pathInRepo(top: string, dir: string): string | undefined {
  return relativeInside(realPathOf(top), realPathOf(dir));
}

/** The error for a memory directory that git cannot see. */
export function memoryDirOutside(root: string, top: string): MemctxError {
  return new MemctxError(`memory directory ${root} is outside the git repository ${top}`, {
    exitCode: EXIT_USAGE,
    hint: 'the hook can only index a memory directory inside this repository: run `memctx init` here, or pass --dir PATH inside it',
  });
}

/** `rel/name` for git, or `name` when rel is the top itself. */
export function joinRepoPath(rel: string, name: string): string {
  return rel === '' ? name : `${rel}/${name}`;
}
