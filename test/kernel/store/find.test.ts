// Issue 30 item 2: a committed `.memory` link must not move the memory root out of the project. A
// clone under ~/projects commits `.memory -> ../..` (or `-> ~/.ssh`); every command that finds it,
// every hook and init refuse it, naming the link and its target. Each attack test fails on the code
// before (show printed the home file, init wrote MEMORY.md into $HOME, the hooks wrote .memctx/ there).
// The MCP server's side is in test/mcp/server/host-paths.test.ts.
import { mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memctx } from '../../helpers/cli.js';
import { runCli } from '../../helpers/run.js';
import { snapshot } from '../../helpers/cli-util.js';
import { makeRepo, memoryFile, type TestRepo } from '../../helpers/repo.js';

const DIARY = '---\nname: diary\ndescription: my diary\ntype: user\n---\n\nDear diary, the safe code is 4711.\n';
const KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nnot-a-real-key-but-private\n-----END OPENSSH PRIVATE KEY-----\n';

/** A clone at ~/projects/evil (HOME is the temporary `home`) committing `.memory -> target`, and what an attacker wants in $HOME. */
async function hostileClone(target: (home: string) => string) {
  const repo = await makeRepo('home/projects/evil');
  const home = join(repo.base, 'home');
  mkdirSync(join(home, 'Documents', 'taxes'), { recursive: true });
  writeFileSync(join(home, 'Documents', 'taxes', '2025.txt'), 'income: 123456\n');
  writeFileSync(join(home, 'Documents', 'diary.md'), DIARY);
  mkdirSync(join(home, '.ssh'));
  writeFileSync(join(home, '.ssh', 'id_ed25519.md'), KEY);
  symlinkSync(target(home), join(repo.top, '.memory'));
  const env = { ...repo.env, HOME: home };
  const before = { entries: readdirSync(home).sort(), documents: snapshot(join(home, 'Documents')), ssh: snapshot(join(home, '.ssh')) };
  return {
    repo,
    home,
    env,
    run: (args: string[], input?: string, cwd = repo.top) => runCli(args, { cwd, env, input }),
    /** $HOME as it was: no MEMORY.md, .memctx/, sessions/ or templates/ made there, no file changed. */
    untouched: () => {
      expect(readdirSync(home).sort()).toEqual(before.entries);
      expect(snapshot(join(home, 'Documents'))).toEqual(before.documents);
      expect(snapshot(join(home, '.ssh'))).toEqual(before.ssh);
      expect(readdirSync(join(home, '.ssh'))).toEqual(['id_ed25519.md']);
    },
  };
}

/** The error for `.memory`, a link to `target` whose real path is `real`, and its hint (hooks: `confined`). */
function refusal(top: string, target: string, real: string, confined = false): { message: string; hint: string } {
  const link = join(top, '.memory');
  const message = `memory directory ${link} leaves the project ${top}: it is a symbolic link to ${target}${target === real ? '' : ` (real path ${real})`}`;
  const fix = `replace ${link} with a real folder, or a link to one inside the project`;
  const hint = confined
    ? `hooks and the MCP server, which a repository's committed settings start, use only a memory directory inside the project: ${fix}`
    : `a cloned repository can commit such a link, so memctx does not follow it: ${fix}; to use ${real} anyway, name it yourself: memctx --dir ${real} COMMAND`;
  return { message, hint };
}

const hookInput = (top: string, event: string) => JSON.stringify({ hook_event_name: event, session_id: 's1', transcript_path: join(top, 'session.jsonl'), cwd: top });

describe('a committed `.memory -> ../..` is refused by every command that finds it (issue 30 item 2)', () => {
  it('show, ls, pack, lint, index, add and edit exit 2 naming the link and its target; nothing of $HOME is read or written', async () => {
    const clone = await hostileClone(() => '../..');
    const { message, hint } = refusal(clone.repo.top, '../..', realpathSync(clone.home));
    const commands = [
      ['show', 'Documents/diary.md'],
      ['ls'],
      // the SessionStart hook as init --agent claude writes it
      ['pack', '--profile', 'rehydrate', '--budget', '2000', '--quiet'],
      ['lint'],
      ['index'],
      ['search', 'diary'],
      ['add', 'pwned', '--name', 'p', '--description', 'p', '--type', 'user', '--body', 'x'],
      ['edit', 'Documents/diary.md', '--old', 'Dear', '--new', 'Pwned'],
    ];
    for (const args of commands) {
      expect([args[0], await clone.run(args)]).toEqual([args[0], { code: 2, stdout: '', stderr: `memctx: error: ${message}\n  hint: ${hint}\n` }]);
    }
    // The walk up from a subfolder finds the same link.
    mkdirSync(join(clone.repo.top, 'src'));
    expect((await clone.run(['show', 'Documents/diary.md'], undefined, join(clone.repo.top, 'src'))).stderr).toBe(`memctx: error: ${message}\n  hint: ${hint}\n`);
    // Naming the link itself is no way round: --dir and MEMCTX_DIR inside the project are checked too.
    expect((await clone.run(['--dir', '.memory', 'show', 'Documents/diary.md'])).code).toBe(2);
    expect((await runCli(['show', 'Documents/diary.md'], { cwd: clone.repo.top, env: { ...clone.env, MEMCTX_DIR: join(clone.repo.top, '.memory') } })).code).toBe(2);
    clone.untouched();
  });

  it('--json prints the refusal as the error document', async () => {
    const clone = await hostileClone(() => '../..');
    const { message, hint } = refusal(clone.repo.top, '../..', realpathSync(clone.home));
    const result = await clone.run(['--json', 'ls']);
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout)).toEqual({ error: { message, file: null, line: null, hint, exitCode: 2 } });
  });

  it('`.memory -> ~/.ssh` (absolute) does not serve the key', async () => {
    const clone = await hostileClone((home) => join(home, '.ssh'));
    const target = join(clone.home, '.ssh');
    const { message, hint } = refusal(clone.repo.top, target, realpathSync(target));
    expect(await clone.run(['show', 'id_ed25519'])).toEqual({ code: 2, stdout: '', stderr: `memctx: error: ${message}\n  hint: ${hint}\n` });
    expect((await clone.run(['pack'])).stdout).toBe('');
    clone.untouched();
  });

  it('init and init --agent claude refuse it; nothing is created in $HOME or the project', async () => {
    const clone = await hostileClone(() => '../..');
    const real = realpathSync(clone.home);
    const plain = refusal(clone.repo.top, '../..', real);
    expect(await clone.run(['init'])).toEqual({ code: 2, stdout: '', stderr: `memctx: error: ${plain.message}\n  hint: ${plain.hint}\n` });
    const agent = refusal(clone.repo.top, '../..', real, true);
    expect(await clone.run(['init', '--agent', 'claude'])).toEqual({ code: 2, stdout: '', stderr: `memctx: error: ${agent.message}\n  hint: ${agent.hint}\n` });
    expect(readdirSync(clone.repo.top).sort()).toEqual(['.git', '.memory', 'README.md']);
    clone.untouched();
  });

  it('a dangling link out (`.memory -> ~/new`) is refused by init, which would have made the folder there', async () => {
    const clone = await hostileClone((home) => join(home, 'new'));
    const init = await clone.run(['init']);
    expect(init.code).toBe(2);
    expect(init.stderr).toContain(`leaves the project ${clone.repo.top}: it is a symbolic link to ${join(clone.home, 'new')}`);
    clone.untouched();
  });
});

describe('the hooks refuse it, and a named folder outside the project too (issue 30 item 2)', () => {
  it('flush --hook and checkpoint say why on stderr and write nothing (exit 0: they never fail the session); index --staged exits 2', async () => {
    const clone = await hostileClone(() => '../..');
    writeFileSync(join(clone.repo.top, 'session.jsonl'), `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'fix the login' } })}\n`);
    const { message, hint } = refusal(clone.repo.top, '../..', realpathSync(clone.home), true);
    const flush = await clone.run(['flush', '--hook'], hookInput(clone.repo.top, 'SessionEnd'));
    expect(flush).toEqual({ code: 0, stdout: '', stderr: `memctx flush --hook: ${message} (${hint}) (not logged: no memory directory found)\n` });
    const checkpoint = await clone.run(['checkpoint'], hookInput(clone.repo.top, 'Stop'));
    expect(checkpoint).toEqual({ code: 0, stdout: '', stderr: `memctx checkpoint: ${message} (${hint})\n` });
    expect(await clone.run(['index', '--staged'])).toEqual({ code: 2, stdout: '', stderr: `memctx: error: ${message}\n  hint: ${hint}\n` });
    clone.untouched();
  });

  it('through the built bin: the hook entries and the SessionStart pack', async () => {
    const clone = await hostileClone(() => '../..');
    const { message } = refusal(clone.repo.top, '../..', realpathSync(clone.home), true);
    const bin = (args: string[], input?: string) => memctx(args, { cwd: clone.repo.top, env: clone.env, input });
    expect(bin(['flush', '--hook'], hookInput(clone.repo.top, 'PreCompact')).stderr).toContain(`memctx flush --hook: ${message} (`);
    expect(bin(['checkpoint'], hookInput(clone.repo.top, 'Stop')).stderr).toContain(`memctx checkpoint: ${message} (`);
    expect(bin(['index', '--staged'])).toMatchObject({ code: 2, stdout: '' });
    const pack = bin(['pack', '--profile', 'rehydrate', '--budget', '2000', '--quiet']);
    expect(pack).toMatchObject({ code: 2, stdout: '' });
    expect(pack.stderr).toContain('it is a symbolic link to ../..');
    clone.untouched();
  });

  it('the CLI may name a folder outside with --dir or MEMCTX_DIR; a hook may not, even so', async () => {
    const clone = await hostileClone(() => '../..');
    rmSync(join(clone.repo.top, '.memory'));
    const documents = join(clone.home, 'Documents');
    // The user's own choice on the command line: allowed.
    expect(await clone.run(['--dir', documents, 'show', 'diary.md'])).toMatchObject({ code: 0, stdout: DIARY });
    expect((await runCli(['ls'], { cwd: clone.repo.top, env: { ...clone.env, MEMCTX_DIR: documents } })).code).toBe(0);
    // The same folder for a hook, whose command line a repository can commit: refused.
    const message = `memory directory ${documents} leaves the project ${clone.repo.top}`;
    const hint = "hooks and the MCP server, which a repository's committed settings start, use only a memory directory inside the project: move the memory directory into the project";
    expect(await clone.run(['--dir', documents, 'index', '--staged'])).toEqual({ code: 2, stdout: '', stderr: `memctx: error: ${message}\n  hint: ${hint}\n` });
    expect((await clone.run(['--dir', documents, 'flush', '--hook'], hookInput(clone.repo.top, 'SessionEnd'))).stderr).toBe(`memctx flush --hook: ${message} (${hint}) (not logged: no memory directory found)\n`);
    const viaEnv = await runCli(['checkpoint'], { cwd: clone.repo.top, env: { ...clone.env, MEMCTX_DIR: documents }, input: hookInput(clone.repo.top, 'Stop') });
    expect(viaEnv.stderr).toBe(`memctx checkpoint: ${message} (${hint})\n`);
    // init --agent would write hooks that refuse it: it refuses first.
    expect(await clone.run(['--dir', documents, 'init', '--agent', 'claude'])).toEqual({ code: 2, stdout: '', stderr: `memctx: error: ${message}\n  hint: ${hint}\n` });
    expect(readdirSync(clone.repo.top).sort()).toEqual(['.git', 'README.md']);
    clone.untouched();
  });
});

describe('what stays allowed (issue 30 item 2)', () => {
  const ls = async (repo: TestRepo, cwd = repo.top) => {
    const result = await repo.memctx(['--json', 'ls'], cwd);
    expect(result.stderr).toBe('');
    return (JSON.parse(result.stdout) as { name: string }[]).map((f) => f.name);
  };

  it('`.memory` linked to a folder inside the repository', async () => {
    const repo = await makeRepo();
    repo.write('docs/memory/project_a.md', memoryFile('A', 'inside'));
    symlinkSync('docs/memory', join(repo.top, '.memory'));
    expect(await ls(repo)).toEqual(['A']);
    expect((await repo.memctx(['index'])).code).toBe(0);
    expect((await repo.memctx(['index', '--staged'])).code).toBe(0);
    expect(readFileSync(join(repo.top, 'docs/memory/MEMORY.md'), 'utf8')).toContain('- [A](project_a.md) — inside');
  });

  it('a monorepo package: its .memory found from below, and linked to another folder of the repository', async () => {
    const repo = await makeRepo();
    repo.write('packages/app/.memory/project_app.md', memoryFile('App', 'package memory'));
    mkdirSync(join(repo.top, 'packages/app/src'));
    expect(await ls(repo, join(repo.top, 'packages/app/src'))).toEqual(['App']);
    expect((await repo.memctx(['index', '--staged'], join(repo.top, 'packages/app/src'))).code).toBe(0);
    repo.write('shared/memory/project_shared.md', memoryFile('Shared', 'shared memory'));
    mkdirSync(join(repo.top, 'packages/lib'));
    symlinkSync('../../shared/memory', join(repo.top, 'packages/lib/.memory'));
    expect(await ls(repo, join(repo.top, 'packages/lib'))).toEqual(['Shared']);
  });

  it('a linked worktree is its own project: its .memory serves, a link out of it to the main checkout does not', async () => {
    const repo = await makeRepo();
    const worktree = join(repo.base, 'wt');
    repo.gitOk(['worktree', 'add', '-q', worktree]);
    repo.write('.memory/project_main.md', memoryFile('Main', 'main checkout'));
    mkdirSync(join(worktree, '.memory'));
    writeFileSync(join(worktree, '.memory/project_wt.md'), memoryFile('Worktree', 'worktree'));
    expect(await ls(repo, worktree)).toEqual(['Worktree']);
    expect((await repo.memctx(['index', '--staged'], worktree)).code).toBe(0);
    rmSync(join(worktree, '.memory'), { recursive: true });
    symlinkSync(join(repo.top, '.memory'), join(worktree, '.memory'));
    const refused = await repo.memctx(['ls'], worktree);
    expect(refused.code).toBe(2);
    expect(refused.stderr.split('\n')[0]).toBe(`memctx: error: memory directory ${join(worktree, '.memory')} leaves the project ${worktree}: it is a symbolic link to ${join(repo.top, '.memory')}`);
  });

  it('a submodule is its own project; from inside it, the superproject\'s own .memory is found as before', async () => {
    const lib = await makeRepo('lib');
    const repo = await makeRepo();
    repo.gitOk(['-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib.top, 'sub']);
    const sub = join(repo.top, 'sub');
    repo.write('.memory/project_super.md', memoryFile('Super', 'superproject'));
    expect(await ls(repo, sub)).toEqual(['Super']);
    mkdirSync(join(sub, '.memory'));
    writeFileSync(join(sub, '.memory/project_sub.md'), memoryFile('Sub', 'submodule'));
    expect(await ls(repo, sub)).toEqual(['Sub']);
    expect((await repo.memctx(['index', '--staged'], sub)).code).toBe(0);
    rmSync(join(sub, '.memory'), { recursive: true });
    symlinkSync('../.memory', join(sub, '.memory'));
    expect((await repo.memctx(['ls'], sub)).stderr.split('\n')[0]).toBe(`memctx: error: memory directory ${join(sub, '.memory')} leaves the project ${sub}: it is a symbolic link to ../.memory (real path ${realpathSync(join(repo.top, '.memory'))})`);
  });
});
