import { execFileSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { EXIT_USAGE, MemctxError } from '../store/errors.js';

export type Env = Record<string, string | undefined>;

/** git failed: its exit status and what it said on stderr. */
export class GitError extends Error {
  constructor(readonly args: string[], readonly status: number | null, readonly stderr: string) {
    super(`git ${args.join(' ')} failed${status === null ? '' : ` (exit ${status})`}${stderr ? `: ${stderr.trim()}` : ''}`);
    this.name = 'GitError';
  }
}

function cleanEnv(env: Env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}

/** Run git with these arguments in cwd and return its stdout (bytes). */
export function gitBytes(args: string[], cwd: string, env: Env): Buffer {
  try {
    return execFileSync('git', args, { cwd, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024 });
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { status?: number | null; stderr?: Buffer };
    if (e.code === 'ENOENT' && e.status === undefined) {
      throw new MemctxError('git is not installed or not on PATH', { hint: 'install git, or run memctx where git is on PATH' });
    }
    throw new GitError(args, e.status ?? null, e.stderr ? e.stderr.toString('utf8') : e.message);
  }
}

/** Run git and return its stdout as text. */
export function git(args: string[], cwd: string, env: Env): string {
  return gitBytes(args, cwd, env).toString('utf8');
}

/** Split `-z` output into paths. */
export function splitNul(text: string): string[] {
  return text.split('\0').filter((p) => p !== '');
}

/** The top of the working tree holding cwd; a usage error (exit 2) outside a git working tree. */
export function gitTopLevel(cwd: string, env: Env): string {
  try {
    return resolve(cwd, git(['rev-parse', '--show-toplevel'], cwd, env).trim());
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
  const rel = relative(realPathOf(top), realPathOf(dir));
  if (rel === '') return '';
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return rel.split(sep).join('/');
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
