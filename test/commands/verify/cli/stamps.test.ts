// Drift from git (issue 35): anchors, `verified:` stamps, content/drifted, and the bad inputs.
import { spawnSync } from 'node:child_process';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deriveRepo, makeMemoryRepoWith, type TestRepo } from '../../../helpers/repo.js';
import { tempDir } from '../../../helpers/cli.js';

const head = (repo: TestRepo) => repo.gitOk(['rev-parse', 'HEAD']).trim();

/** A memory repository with src/auth/session.ts and src/other.ts committed (built once per file). */
function withCode(): Promise<TestRepo> {
  return makeMemoryRepoWith('code', (repo) => {
    repo.write('src/auth/session.ts', 'export function validate() {}\n');
    repo.write('src/other.ts', 'export const other = 1;\n');
    repo.gitOk(['add', '-A']);
    repo.gitOk(['commit', '-q', '-m', 'code']);
  });
}

/** withCode's repository and a memory naming src/auth/session.ts, added by `memctx add` and committed (built once per file for each body). */
function anchored(body = 'Tokens are checked in `src/auth/session.ts` validate().', extra: string[] = []): Promise<TestRepo> {
  return deriveRepo(`anchored ${JSON.stringify([body, extra])}`, withCode, async (repo) => {
    const added = await repo.memctx(['add', 'project_auth.md', '--name', 'Auth', '--description', 'where tokens are checked', '--type', 'project', ...extra, '--body', body]);
    expect(added.stderr).toBe('');
    repo.gitOk(['add', '-A']);
    repo.gitOk(['commit', '-q', '-m', 'memory']);
  });
}

/** anchored()'s repository after a commit rewriting src/auth/session.ts (built once per file). */
const rewritten = () => deriveRepo('rewritten', () => anchored(), (repo) => commit(repo, 'src/auth/session.ts', 'export function check() {}\n', 'rewrite'));

/** A `git clone --depth 1` of rewritten()'s repository, as the repository itself (cloned once per file). */
const shallowClone = () =>
  deriveRepo('shallow clone', rewritten, (repo) => {
    const clone = join(repo.base, 'shallow');
    repo.gitOk(['clone', '-q', '--depth', '1', `file://${repo.top}`, clone]);
    renameSync(repo.top, join(repo.base, 'origin'));
    renameSync(clone, repo.top);
  });

function commit(repo: TestRepo, rel: string, text: string, message: string): void {
  repo.write(rel, text);
  repo.gitOk(['add', '-A']);
  repo.gitOk(['commit', '-q', '-m', message]);
}

/** content/drifted's findings as `file:line message`. */
async function drifted(repo: TestRepo, cwd?: string): Promise<string[]> {
  const out = JSON.parse((await repo.memctx(['lint', '--format', 'json'], cwd)).stdout) as { filePath: string; messages: { line: number; ruleId: string; message: string }[] }[];
  return out.flatMap((f) => f.messages.filter((m) => m.ruleId === 'content/drifted').map((m) => `${f.filePath.replace(/^.*\/\.memory\//, '')}:${m.line} ${m.message}`));
}

describe('verified: stamps', () => {
  it('add records HEAD; edit records the new HEAD; a hand-added key stays', async () => {
    const repo = await anchored();
    const file = join(repo.top, '.memory/project_auth.md');
    const stamped = head(repo);
    expect(readFileSync(file, 'utf8')).toContain(`verified: ${repo.gitOk(['rev-parse', 'HEAD~1']).trim()}\n`);
    writeFileSync(file, readFileSync(file, 'utf8').replace('type: project\n', 'type: project\nowner: ana\n'));
    expect((await repo.memctx(['edit', 'project_auth.md', '--old', 'validate()', '--new', 'check()'])).code).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain(`verified: ${stamped}\n`);
    expect(text).toContain('owner: ana\n');
  });

  it('outside git nothing is stamped and lint says nothing of drift', async () => {
    const cwd = tempDir('memctx-nogit-');
    const env = { GIT_CEILING_DIRECTORIES: cwd };
    const { runCli } = await import('../../../helpers/run.js');
    expect((await runCli(['init'], { cwd, env })).code).toBe(0);
    expect((await runCli(['add', 'a.md', '--name', 'A', '--description', 'a', '--type', 'project', '--body', 'See `src/a.ts`.'], { cwd, env })).code).toBe(0);
    expect(readFileSync(join(cwd, '.memory/a.md'), 'utf8')).not.toContain('verified:');
    const lint = await runCli(['lint', '--format', 'json'], { cwd, env });
    expect(lint.stdout).toContain('"messages"');
    expect(lint.stdout).not.toContain('content/drifted');
  });
});

describe('content/drifted', () => {
  it('reports the commits since verified that touched an anchor, not other commits; verify clears it', async () => {
    const repo = await anchored();
    commit(repo, 'src/other.ts', 'export const other = 2;\n', 'unrelated change');
    expect(await drifted(repo)).toEqual([]);
    commit(repo, 'src/auth/session.ts', 'export function check() {}\n', 'rewrite validate as check');
    commit(repo, 'src/auth/session.ts', 'export function check() { return 1; }\n', 'check returns');
    const was = repo.gitOk(['log', '-1', '--format=%H', 'HEAD~4']).trim().slice(0, 7);
    const latest = head(repo).slice(0, 7);
    expect(await drifted(repo)).toEqual([
      `project_auth.md:7 src/auth/session.ts changed in 2 commits since it was verified (${was}), latest ${latest} "check returns"; check it against the code, then run \`memctx verify project_auth.md\``,
    ]);
    const verified = await repo.memctx(['verify', 'project_auth.md']);
    expect([verified.code, verified.stdout]).toEqual([0, `verified project_auth.md at ${head(repo).slice(0, 12)}\n`]);
    expect(await drifted(repo)).toEqual([]);
  });

  it('follows a rename and says every anchor is gone; a detached HEAD works the same', async () => {
    const repo = await anchored();
    repo.gitOk(['mv', 'src/auth/session.ts', 'src/auth/tokens.ts']);
    repo.gitOk(['commit', '-q', '-m', 'move session to tokens']);
    repo.gitOk(['checkout', '-q', '--detach', 'HEAD']);
    const lines = await drifted(repo);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('every path it is about is gone (src/auth/session.ts changed in 1 commit since it was verified');
    expect(lines[0]).toContain('"move session to tokens"; src/auth/session.ts moved to src/auth/tokens.ts); update it to the new paths or remove it');
  });

  it('a verified commit git does not have: unknown, never fresh', async () => {
    const repo = await anchored();
    const file = join(repo.top, '.memory/project_auth.md');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/verified: [0-9a-f]+/, `verified: ${'ab'.repeat(20)}`));
    expect(await drifted(repo)).toEqual([
      `project_auth.md:7 cannot tell whether it still holds: its verified commit ${'ab'.repeat(6)} is not in this repository (rebased away?); check it against the code, then run \`memctx verify project_auth.md\``,
    ]);
  });

  it('a shallow clone: drift unknown, said so', async () => {
    const clone = await shallowClone();
    expect((await drifted(clone))[0]).toContain('cannot tell whether it still holds: this is a shallow clone');
    // the SessionStart bundle says so too: unknown, never fresh
    const bundle = (await clone.memctx(['pack', '--profile', 'rehydrate', '--quiet'])).stdout;
    expect(bundle).toMatch(/^- `project_auth\.md` — drift unknown: this is a shallow clone/m);
  });

  it('paths: takes folders and globs; an entry outside the repository is named', async () => {
    const repo = await anchored('No path named here.', ['--field', 'paths=[src/auth/, "src/**/*.ts", ../../etc/passwd]']);
    commit(repo, 'src/other.ts', 'export const other = 3;\n', 'other again');
    const lines = await drifted(repo);
    expect(lines[0]).toBe('project_auth.md:5 paths: ../../etc/passwd is outside the repository; anchors are paths inside it, relative to its root');
    expect(lines[1]).toContain('src/**/*.ts changed in 1 commit since it was verified');
    expect(lines).toHaveLength(2);
  });

  it('two worktrees: each judges drift against its own HEAD; verify in one leaves the other drifted', async () => {
    const repo = await anchored();
    const other = join(repo.base, 'wt');
    repo.gitOk(['worktree', 'add', '-q', '-b', 'side', other]);
    repo.gitOk(['-C', other, 'config', 'user.email', 't@example.com']);
    repo.gitOk(['-C', other, 'config', 'user.name', 'T']);
    writeFileSync(join(other, 'src/auth/session.ts'), 'export function check() {}\n');
    repo.gitOk(['-C', other, 'commit', '-q', '-am', 'rewrite on the side']);
    expect(await drifted(repo)).toEqual([]);
    const there = await drifted(repo, other);
    expect(there).toHaveLength(1);
    expect(there[0]).toContain('src/auth/session.ts changed in 1 commit since it was verified');
    // a SessionStart pack in each: its caches live in each worktree's own git dir, and neither leaks into the other
    expect((await repo.memctx(['pack', '--profile', 'rehydrate', '--quiet'], other)).stdout).toContain('## Drifted memories');
    expect((await repo.memctx(['pack', '--profile', 'rehydrate', '--quiet'])).stdout).not.toContain('## Drifted memories');
    expect((await repo.memctx(['pack', '--profile', 'rehydrate', '--quiet'], other)).stdout).toContain('## Drifted memories');
    const verified = await repo.memctx(['verify', 'project_auth.md'], other);
    expect(verified.code).toBe(0);
    expect(await drifted(repo, other)).toEqual([]);
    expect(await drifted(repo)).toEqual([]);
    expect(repo.gitOk(['status', '--porcelain']).trim()).toBe('');
  });

  it('a glob over thousands of files is matched in memory, never expanded on a command line', async () => {
    const repo = await anchored('Generated code.', ['--field', 'paths=["gen/**"]']);
    // 20,000 files in one commit, put in git's index directly (writing them to disk would take most of 10 s)
    repo.write('gen/one.ts', 'export const v = 1;\n');
    const blob = repo.gitOk(['hash-object', '-w', 'gen/one.ts']).trim();
    const entries = Array.from({ length: 20_000 }, (_, i) => `100644 ${blob}\tgen/d${i % 50}/f${i}.ts\n`).join('');
    const env = Object.fromEntries(Object.entries({ ...process.env, ...repo.env }).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv;
    expect(spawnSync('git', ['update-index', '--add', '--index-info'], { cwd: repo.top, env, input: entries }).status).toBe(0);
    repo.gitOk(['commit', '-q', '-m', 'generate']);
    expect(repo.gitOk(['show', '--name-only', '--format=', 'HEAD']).split('\n').filter(Boolean)).toHaveLength(20_000);
    expect((await drifted(repo)).map((l) => l.replace(/\b[0-9a-f]{7}\b/g, 'HASH'))).toEqual([
      'project_auth.md:8 gen/** changed in 1 commit since it was verified (HASH), latest HASH "generate"; check it against the code, then run `memctx verify project_auth.md`',
    ]);
  });
});

describe('drift bad inputs, exactly as reported (issue 35)', () => {
  /** content/drifted's findings and the SessionStart bundle's drifted block, hashes as HASH. */
  async function seen(repo: TestRepo, cwd?: string) {
    const hash = (s: string) => s.replace(/\b[0-9a-f]{7,40}\b/g, 'HASH');
    const bundle = (await repo.memctx(['pack', '--profile', 'rehydrate', '--budget', '2000', '--quiet'], cwd)).stdout.split('\n');
    const at = bundle.indexOf('## Drifted memories');
    const startup = await repo.memctx(['--json', 'status', '--startup'], cwd);
    return {
      lint: (await drifted(repo, cwd)).map(hash),
      block: at < 0 ? [] : bundle.slice(at + 4, bundle.indexOf('', at + 4)).map(hash),
      startup: [startup.code, (JSON.parse(startup.stdout) as { bySource: { drifted: number } }).bySource.drifted > 0],
    };
  }

  it('a verified commit a real rebase took away (reflog expired, gc): unknown, never fresh', async () => {
    const repo = await anchored();
    // add stamped the code commit (HEAD~1); rebasing the code and memory commits onto another base takes it away
    const stamped = repo.gitOk(['rev-parse', 'HEAD~1']).trim();
    expect(readFileSync(join(repo.top, '.memory/project_auth.md'), 'utf8')).toContain(`verified: ${stamped}\n`);
    const branch = repo.gitOk(['branch', '--show-current']).trim();
    repo.gitOk(['checkout', '-q', '-b', 'main-moves', 'HEAD~2']);
    commit(repo, 'README.md', '# project, moved on\n', 'main moves');
    repo.gitOk(['checkout', '-q', branch]);
    repo.gitOk(['rebase', '-q', 'main-moves']);
    repo.gitOk(['reflog', 'expire', '--expire=now', '--all']);
    repo.gitOk(['gc', '-q', '--prune=now']);
    expect(repo.git(['cat-file', '-e', stamped]).code).not.toBe(0);
    expect(await seen(repo)).toEqual({
      lint: ['project_auth.md:7 cannot tell whether it still holds: its verified commit HASH is not in this repository (rebased away?); check it against the code, then run `memctx verify project_auth.md`'],
      block: ['- `project_auth.md` — drift unknown: its verified commit HASH is not in this repository (rebased away?)'],
      startup: [0, true],
    });
    // verify re-stamps it at the new HEAD: fresh again
    expect((await repo.memctx(['verify', 'project_auth.md'])).code).toBe(0);
    expect(await drifted(repo)).toEqual([]);
  });

  it('a shallow clone: unknown when the verified commit is cut off, judged when it is there', async () => {
    const shallow = await shallowClone();
    expect(await seen(shallow)).toEqual({
      lint: ['project_auth.md:7 cannot tell whether it still holds: this is a shallow clone, so the commits since the memories were verified are not all here (`git fetch --unshallow` brings them); check it against the code, then run `memctx verify project_auth.md`'],
      block: ['- `project_auth.md` — drift unknown: this is a shallow clone, so the commits since the memories were verified are not all here (`git fetch --unshallow` brings them)'],
      startup: [0, true],
    });
    // deep enough to hold the verified commit (code, memory, rewrite): the drift is known
    const repo = await rewritten();
    const deeper = join(repo.base, 'shallow3');
    repo.gitOk(['clone', '-q', '--depth', '3', `file://${repo.top}`, deeper]);
    expect(await seen(repo, deeper)).toEqual({
      lint: ['project_auth.md:7 src/auth/session.ts changed in 1 commit since it was verified (HASH), latest HASH "rewrite"; check it against the code, then run `memctx verify project_auth.md`'],
      block: ['- `project_auth.md` — src/auth/session.ts changed in 1 commit since it was verified (HASH), latest HASH "rewrite"'],
      startup: [0, true],
    });
  });

  it('a memory naming paths outside the repository in its text: no anchor there, no drift, nothing read there', async () => {
    const repo = await anchored('See `../../outside/x.ts`, `/etc/passwd` and [x](../../../outside/x.ts).');
    commit(repo, 'src/other.ts', 'export const other = 4;\n', 'other');
    expect(await seen(repo)).toEqual({ lint: [], block: [], startup: [0, false] });
  });

  it('a memory folder outside git: no drift said anywhere, and status --startup still measures', async () => {
    const cwd = tempDir('memctx-nogit-startup-');
    const env = { GIT_CEILING_DIRECTORIES: cwd, HOME: cwd, XDG_CACHE_HOME: join(cwd, '.cache') };
    const { runCli } = await import('../../../helpers/run.js');
    expect((await runCli(['init'], { cwd, env })).code).toBe(0);
    writeFileSync(join(cwd, '.memory/a.md'), '---\nname: A\ndescription: a\ntype: project\nverified: 0123456789abcdef0123456789abcdef01234567\n---\n\nSee `src/a.ts`.\n');
    const pack = await runCli(['pack', '--profile', 'rehydrate', '--quiet'], { cwd, env });
    expect([pack.code, pack.stdout.includes('Drifted')]).toEqual([0, false]);
    const startup = await runCli(['--json', 'status', '--startup'], { cwd, env });
    expect([startup.code, (JSON.parse(startup.stdout) as { bySource: { drifted: number } }).bySource.drifted]).toEqual([0, 0]);
  });
});
