// Machine state never lives in the work tree (issue 30, items 1 and 4): a cloned repository's
// `.memory/.memctx/` is never read or written, and the state folder is the git directory's or a
// private per-user one, checked before use.
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { memctx, removeDir, stateOf, tempDir } from '../../helpers/cli.js';
import { runCli } from '../../helpers/run.js';
import { contentHash } from '../../../src/kernel/tokens/hash.js';
import { VERSION } from '../../../src/kernel/version.js';
import { readCountCache, TOKEN_COUNTS_FILE, writeCountCache } from '../../../src/kernel/state/token-counts.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

const STATE_FILES = ['stats.json', 'scan-cache.json', 'pack-cache.json', 'pack-cache.bin', 'lint-cache.json', 'token-counts.json', 'token-counts.bin', 'checkpoints.json', 'flush.log'];
const VICTIM = 'VICTIM TEXT\n';

function git(cwd: string, args: string[]): string {
  const run = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr}`);
  return run.stdout;
}

/** A clone as a stranger's repository could ship it: every state file a link out of the project. */
function hostileClone(): { home: string; project: string; root: string; env: Record<string, string> } {
  const home = tempDir();
  dirs.push(home);
  const project = join(home, 'repo');
  const root = join(project, '.memory');
  mkdirSync(join(root, '.memctx', 'pending'), { recursive: true });
  writeFileSync(join(root, 'MEMORY.md'), '# Memory\n');
  writeFileSync(join(root, 'notes.md'), '---\nname: Notes\ndescription: some notes\ntype: project\n---\nThe deploy runs on Fridays.\n');
  for (const name of STATE_FILES) {
    writeFileSync(join(home, `victim-${name}`), VICTIM);
    symlinkSync(`../../../victim-${name}`, join(root, '.memctx', name));
  }
  mkdirSync(join(home, 'victim-lock'));
  symlinkSync('../../../victim-lock', join(root, '.memctx', 'lock'));
  git(project, ['init', '-q', '-b', 'main']);
  git(project, ['add', '-A', '-f']);
  git(project, ['commit', '-q', '-m', 'hostile']);
  return { home, project, root, env: { HOME: home, XDG_CACHE_HOME: join(home, '.cache') } };
}

function victimsUntouched(home: string, root: string): void {
  for (const name of STATE_FILES) {
    expect(readFileSync(join(home, `victim-${name}`), 'utf8')).toBe(VICTIM);
    expect(readlinkSync(join(root, '.memctx', name))).toBe(`../../../victim-${name}`);
  }
  expect(readdirSync(join(home, 'victim-lock'))).toEqual([]);
  expect(readdirSync(join(root, '.memctx', 'pending'))).toEqual([]);
}

describe('a cloned repository cannot plant machine state', () => {
  const hook = (project: string, event: string) => JSON.stringify({ session_id: 's1', transcript_path: join(project, 'none.jsonl'), cwd: project, hook_event_name: event, reason: 'exit' });
  it.each([
    ['show', ['show', 'notes.md'], undefined, 0],
    ['index', ['index'], undefined, 0],
    ['pack', ['pack', '--budget', '2000'], undefined, 0],
    ['lint (MEMORY.md is stale: exit 1)', ['lint'], undefined, 1],
    ['add', ['add', 'b', '--name', 'B', '--description', 'second', '--type', 'user', '--body', 'x'], undefined, 0],
    ['flush --hook', ['flush', '--hook'], 'SessionEnd', 0],
    // (the hook's transcript is never written: no wait for it)
    ['checkpoint', ['checkpoint', '--wait', '0'], 'Stop', 0],
  ])('%s writes nothing through committed .memory/.memctx links, and keeps its state in .git/memctx/', async (_name, args, event, code) => {
    const { home, project, root, env } = hostileClone();
    const run = await runCli(args, { cwd: project, env, input: event ? hook(project, event) : undefined });
    expect(run.stderr).not.toContain('unexpected failure');
    expect(run.code).toBe(code);
    victimsUntouched(home, root);
    const state = join(project, '.git', 'memctx');
    const [id] = readdirSync(state);
    expect(id).toBe('.memory');
    expect(statSync(join(state, id)).mode & 0o777).toBe(0o700);
    expect(readdirSync(join(state, id)).length).toBeGreaterThan(0);
    // Only Node's compile cache (Node >= 22.1) goes to the per-user folder.
    const perUser = join(home, '.cache', 'memctx');
    expect(existsSync(perUser) ? readdirSync(perUser).filter((n) => !n.startsWith('compile-cache')) : []).toEqual([]);
  });

  it('a committed token-count cache cannot make a bundle overrun its budget', async () => {
    const { project, root, env } = hostileClone();
    const big = `---\nname: Big\ndescription: a big file\ntype: project\n---\n${'The deploy pipeline fans out to every region and waits. '.repeat(10_000)}\n`;
    writeFileSync(join(root, 'big.md'), big);
    // A count cache of this build saying the big file is 1 token, made in a scratch memory and committed.
    const scratch = tempDir();
    dirs.push(scratch);
    writeFileSync(join(scratch, 'MEMORY.md'), '# Memory\n');
    const { cache } = readCountCache(scratch, VERSION);
    for (const encoding of ['o200k_base', 'cl100k_base'] as const) cache.set(encoding, contentHash(big), 1);
    await writeCountCache(scratch, cache, VERSION);
    const lie = readFileSync(join(stateOf(scratch), TOKEN_COUNTS_FILE));
    const planted = join(root, '.memctx', TOKEN_COUNTS_FILE);
    spawnSync('rm', [planted]);
    writeFileSync(planted, lie);
    const run = await runCli(['--json', 'pack', '--budget', '8000'], { cwd: project, env });
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { tokens: number; budget: number; files: Array<{ path: string; mode: string }> };
    expect(report.tokens).toBeLessThanOrEqual(8000);
    expect(report.files.find((f) => f.path === 'big.md')?.mode).not.toBe('full');
    expect(readFileSync(planted)).toEqual(lie);
  });
});

describe('where the state folder is', () => {
  function plainMemory(): { cwd: string; root: string; home: string } {
    const home = tempDir();
    dirs.push(home);
    const cwd = join(home, 'work');
    const root = join(cwd, '.memory');
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, 'MEMORY.md'), '# Memory\n');
    writeFileSync(join(root, 'a.md'), '---\nname: A\ndescription: first\ntype: user\n---\nbody\n');
    return { cwd, root, home };
  }
  const only = (dir: string) => {
    const names = readdirSync(dir).filter((n) => !n.startsWith('compile-cache'));
    expect(names).toHaveLength(1);
    return join(dir, names[0]);
  };

  // The state folder follows the environment of the process (XDG_CACHE_HOME, HOME): these three run the bin.
  it('outside git: $XDG_CACHE_HOME/memctx/<id>/, made 0700', () => {
    const { cwd, home } = plainMemory();
    const cache = join(home, 'xdg');
    expect(memctx(['index'], { cwd, env: { HOME: home, XDG_CACHE_HOME: cache } }).code).toBe(0);
    const state = only(join(cache, 'memctx'));
    expect(readdirSync(state)).toContain('scan-cache.json');
    expect(statSync(join(cache, 'memctx')).mode & 0o777).toBe(0o700);
    expect(statSync(state).mode & 0o777).toBe(0o700);
  });

  it('a relative XDG_CACHE_HOME is ignored (the XDG rule): ~/.cache/memctx/', () => {
    const { cwd, home } = plainMemory();
    expect(memctx(['index'], { cwd, env: { HOME: home, XDG_CACHE_HOME: 'relative/cache' } }).code).toBe(0);
    expect(readdirSync(only(join(home, '.cache', 'memctx')))).toContain('scan-cache.json');
    expect(existsSync(join(cwd, 'relative'))).toBe(false);
  });

  it('an XDG_CACHE_HOME others can write (no sticky bit), or a memctx folder someone else made there, is passed over for ~/.cache', () => {
    const { cwd, home } = plainMemory();
    const shared = join(home, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    expect(memctx(['index'], { cwd, env: { HOME: home, XDG_CACHE_HOME: shared } }).code).toBe(0);
    expect(readdirSync(shared)).toEqual([]);
    expect(readdirSync(only(join(home, '.cache', 'memctx')))).toContain('scan-cache.json');

    const planted = join(home, 'planted');
    mkdirSync(join(planted, 'memctx'), { recursive: true });
    chownSync(join(planted, 'memctx'), 4242, 4242);
    expect(memctx(['index'], { cwd, env: { HOME: join(home, 'nohome'), XDG_CACHE_HOME: planted } }).code).toBe(0);
    expect(readdirSync(join(planted, 'memctx'))).toEqual([]);
    expect(existsSync(join(home, 'nohome', '.cache', 'memctx'))).toBe(true);
  });

  it('a state folder that is a link or writable by others is not used: pack still packs and says it could not cache', async () => {
    const { cwd, root } = plainMemory();
    git(cwd, ['init', '-q', '-b', 'main']);
    const elsewhere = join(cwd, 'elsewhere');
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, join(cwd, '.git', 'memctx'));
    const run = await runCli(['pack', '--budget', '2000'], { cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('body');
    expect(run.stderr).toContain(`could not cache: ${join(cwd, '.git', 'memctx')} is a symbolic link; the next pack reads and counts again`);
    expect(readdirSync(elsewhere)).toEqual([]);
    const add = await runCli(['add', 'b', '--name', 'B', '--description', 'd', '--type', 'user', '--body', 'x'], { cwd });
    expect(add.code).toBe(2);
    expect(add.stderr).toContain(`cannot keep the write lock: ${join(cwd, '.git', 'memctx')} is a symbolic link`);
    expect(existsSync(join(root, 'b.md'))).toBe(false);
  });

  it('a linked worktree keeps its state in its own git directory; two memory folders of one repository get two', async () => {
    const { cwd } = plainMemory();
    git(cwd, ['init', '-q', '-b', 'main']);
    git(cwd, ['add', '-A']);
    git(cwd, ['commit', '-q', '-m', 'one']);
    const wt = join(cwd, '..', 'wt');
    git(cwd, ['worktree', 'add', '-q', wt]);
    expect((await runCli(['index'], { cwd: wt })).code).toBe(0);
    expect(readdirSync(only(join(cwd, '.git', 'worktrees', 'wt', 'memctx')))).toContain('scan-cache.json');
    expect(existsSync(join(cwd, '.git', 'memctx'))).toBe(false);
    mkdirSync(join(cwd, 'pkg', '.memory'), { recursive: true });
    writeFileSync(join(cwd, 'pkg', '.memory', 'MEMORY.md'), '# Memory\n');
    expect((await runCli(['index'], { cwd })).code).toBe(0);
    expect((await runCli(['index'], { cwd: join(cwd, 'pkg') })).code).toBe(0);
    expect(readdirSync(join(cwd, '.git', 'memctx')).sort()).toEqual(['.memory', 'pkg%2F.memory']);
    expect(lstatSync(join(cwd, '.git', 'memctx')).isDirectory()).toBe(true);
  });

  it('a submodule keeps its state in the superproject\'s .git/modules/<name>/', async () => {
    const { cwd } = plainMemory();
    const sub = join(cwd, '..', 'sub-origin');
    mkdirSync(join(sub, '.memory'), { recursive: true });
    writeFileSync(join(sub, '.memory', 'MEMORY.md'), '# Memory\n');
    git(sub, ['init', '-q', '-b', 'main']);
    git(sub, ['add', '-A']);
    git(sub, ['commit', '-q', '-m', 'sub']);
    git(cwd, ['init', '-q', '-b', 'main']);
    git(cwd, ['-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', sub, 'lib']);
    expect((await runCli(['index'], { cwd: join(cwd, 'lib') })).code).toBe(0);
    expect(readdirSync(join(cwd, '.git', 'modules', 'lib', 'memctx', '.memory'))).toContain('scan-cache.json');
    expect(existsSync(join(cwd, 'lib', '.memory', '.memctx'))).toBe(false);
  });

  it('a state folder another user owns (a repository two users share) is not used: reads work, writes say why', async () => {
    const { cwd, root } = plainMemory();
    git(cwd, ['init', '-q', '-b', 'main']);
    expect((await runCli(['index'], { cwd })).code).toBe(0);
    const state = join(cwd, '.git', 'memctx', '.memory');
    chownSync(state, 4242, 4242);
    const pack = await runCli(['pack', '--budget', '2000'], { cwd });
    expect(pack.code).toBe(0);
    expect(pack.stderr).toContain(`could not cache: ${state} belongs to another user (uid 4242)`);
    const add = await runCli(['add', 'b', '--name', 'B', '--description', 'd', '--type', 'user', '--body', 'x'], { cwd });
    expect(add.code).toBe(2);
    expect(add.stderr).toContain(`cannot keep the write lock: ${state} belongs to another user (uid 4242)`);
    expect(existsSync(join(root, 'b.md'))).toBe(false);
  });
});

describe('init in a clone whose memory files are links out', () => {
  it.each(['.gitignore', '.gitattributes'])('a committed .memory/%s -> outside is not written through', async (name) => {
    const home = tempDir();
    dirs.push(home);
    const project = join(home, 'repo');
    mkdirSync(join(project, '.memory'), { recursive: true });
    writeFileSync(join(home, 'victim'), VICTIM);
    symlinkSync('../../victim', join(project, '.memory', name));
    git(project, ['init', '-q', '-b', 'main']);
    const run = await runCli(['init'], { cwd: project, env: { HOME: home } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${name} was not changed: it is now a symbolic link to outside the memory directory`);
    expect(readFileSync(join(home, 'victim'), 'utf8')).toBe(VICTIM);
  });

  it('a committed .memory/MEMORY.md -> outside: init leaves it, index refuses it', async () => {
    const home = tempDir();
    dirs.push(home);
    const project = join(home, 'repo');
    mkdirSync(join(project, '.memory'), { recursive: true });
    writeFileSync(join(home, 'victim'), VICTIM);
    symlinkSync('../../victim', join(project, '.memory', 'MEMORY.md'));
    git(project, ['init', '-q', '-b', 'main']);
    expect((await runCli(['init'], { cwd: project, env: { HOME: home } })).code).toBe(0);
    const index = await runCli(['index'], { cwd: project, env: { HOME: home } });
    expect(index.code).toBe(2);
    expect(index.stderr).toContain('MEMORY.md is a symbolic link to outside the memory directory; not read or written');
    expect(readFileSync(join(home, 'victim'), 'utf8')).toBe(VICTIM);
  });
});
