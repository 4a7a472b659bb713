import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempDir, type CliResult } from './cli.js';
import { runCli } from './run.js';

/** Git's own variables from an outer process (a hook running these tests, say) must not leak in. */
function isolatedEnv(home: string): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const key of Object.keys(process.env)) if (key.startsWith('GIT_')) env[key] = undefined;
  return {
    ...env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CEILING_DIRECTORIES: dirname(home),
    GIT_TERMINAL_PROMPT: '0',
    MEMCTX_DIR: undefined,
    NO_COLOR: '1',
  };
}

export interface TestRepo {
  /** The temporary directory holding the repository (and anything beside it). */
  base: string;
  /** The repository's working tree. */
  top: string;
  env: Record<string, string | undefined>;
  git(args: string[], cwd?: string, extraEnv?: Record<string, string | undefined>): CliResult;
  /** git, and throw when it fails. */
  gitOk(args: string[], cwd?: string): string;
  memctx(args: string[], cwd?: string): Promise<CliResult>;
  write(rel: string, text: string): string;
}

/** Templates made once per test file (git and memctx run once), copied for each test. */
const templates = new Map<string, string>();

function repoAt(base: string, top: string): TestRepo {
  const env = isolatedEnv(base);
  const run = (args: string[], cwd = top, extraEnv: Record<string, string | undefined> = {}): CliResult => {
    const clean = Object.fromEntries(Object.entries({ ...process.env, ...env, ...extraEnv }).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv;
    const result = spawnSync('git', args, { cwd, env: clean, encoding: 'utf8' });
    return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
  };
  return {
    base,
    top,
    env,
    git: run,
    gitOk(args, cwd) {
      const result = run(args, cwd);
      if (result.code !== 0) throw new Error(`git ${args.join(' ')} failed (${result.code}): ${result.stderr}`);
      return result.stdout;
    },
    memctx: (args, cwd = top) => runCli(args, { cwd, env }),
    write(rel, text) {
      const abs = join(top, rel);
      mkdirSync(dirname(abs), { recursive: true });
      writeFileSync(abs, text);
      return abs;
    },
  };
}

/**
 * A copy of the template `key` in a fresh temporary directory. The template is built the first time: by
 * `build` in an empty folder, or, given `parent`, by `build` on a copy of that template (its git and memctx
 * runs are not repeated).
 */
async function fromTemplate(key: string, name: string, build: (repo: TestRepo) => unknown, parent?: () => Promise<TestRepo>): Promise<TestRepo> {
  let template = templates.get(key);
  // Another test file in the same worker (isolate: false) may have removed it with its temp dirs.
  if (template === undefined || !existsSync(template)) {
    const repo = parent === undefined ? emptyRepo(name) : await parent();
    await build(repo);
    template = repo.base;
    templates.set(key, template);
  }
  const base = tempDir('memctx-hooks-');
  // verbatimSymlinks: a relative link stays relative (it would otherwise point into the template).
  cpSync(join(template, name), join(base, name), { recursive: true, verbatimSymlinks: true });
  return repoAt(base, join(base, name));
}

function emptyRepo(name: string): TestRepo {
  const base = tempDir('memctx-template-');
  const top = join(base, name);
  mkdirSync(top, { recursive: true });
  return repoAt(base, top);
}

function initRepo(repo: TestRepo): void {
  repo.gitOk(['init', '-q']);
  // The bytes `git config` writes for user.name, user.email and commit.gpgsign, without starting git three
  // times; and no `git maintenance run --auto` started after every commit (nothing to do in a tiny repository).
  appendFileSync(join(repo.top, '.git', 'config'), '[user]\n\tname = Test User\n\temail = test@example.com\n[commit]\n\tgpgsign = false\n[maintenance]\n\tauto = false\n');
  repo.write('README.md', '# project\n');
  repo.gitOk(['add', 'README.md']);
  repo.gitOk(['commit', '-q', '-m', 'initial']);
}

/** A fresh repository with a local identity, unsigned commits and one commit. */
export function makeRepo(name = 'repo'): Promise<TestRepo> {
  return fromTemplate(`repo:${name}`, name, initRepo);
}

/** A repository as makeRepo's, then `build` (run once per test file: its result is copied for each test). */
export function makeRepoWith(key: string, build: (repo: TestRepo) => unknown): Promise<TestRepo> {
  return fromTemplate(`with:${key}`, 'repo', build, () => makeRepo());
}

export function memoryFile(name: string, description: string, type = 'project'): string {
  return `---\nname: ${name}\ndescription: ${description}\ntype: ${type}\n---\n\nBody of ${name}.\n`;
}

async function initMemory(repo: TestRepo): Promise<void> {
  initRepo(repo);
  const init = await repo.memctx(['init']);
  if (init.code !== 0) throw new Error(`memctx init failed: ${init.stderr}`);
  repo.write('.memory/user_prefs.md', memoryFile('User prefs', 'How the user likes to work', 'user'));
  const index = await repo.memctx(['index']);
  if (index.code !== 0) throw new Error(`memctx index failed: ${index.stderr}`);
  repo.gitOk(['add', '-A']);
  repo.gitOk(['commit', '-q', '-m', 'memory']);
}

/** A repository with an initialised, committed .memory/ holding one memory file. */
export function makeMemoryRepo(name = 'repo'): Promise<TestRepo> {
  return fromTemplate(`memory:${name}`, name, initMemory);
}

/** A repository as makeMemoryRepo's, then `build` (run once per test file: its result is copied for each test). */
export function makeMemoryRepoWith(key: string, build: (repo: TestRepo) => unknown): Promise<TestRepo> {
  return fromTemplate(`memory-with:${key}`, 'repo', build, () => makeMemoryRepo());
}

/** A copy of `parent()`'s repository, then `build` (run once per test file: its result is copied for each test). */
export function deriveRepo(key: string, parent: () => Promise<TestRepo>, build: (repo: TestRepo) => unknown): Promise<TestRepo> {
  return fromTemplate(`derived:${key}`, 'repo', build, parent);
}

/** Paths of the last commit's changes. */
export function committedPaths(repo: TestRepo, cwd?: string): string[] {
  return repo.gitOk(['show', '--name-only', '--no-renames', '--format=', 'HEAD'], cwd).split('\n').filter(Boolean).sort();
}

export function headCount(repo: TestRepo, cwd?: string): number {
  return Number(repo.gitOk(['rev-list', '--count', 'HEAD'], cwd).trim());
}
