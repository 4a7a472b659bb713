// hook/cli.ts: what `memctx hook install|uninstall` prints (install.test.ts holds what they do to the hooks).
import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
import { runCli } from '../../helpers/run.js';

const git = (cwd: string, ...args: string[]) => spawnSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=a', ...args], { cwd, encoding: 'utf8' });

describe('hook install -n (issue 24, item 11)', () => {
  it('hook install -n is a dry run', async () => {
    const dir = tempDir();
    git(dir, 'init', '-q');
    await runCli(['init'], { cwd: dir });
    const out = await runCli(['hook', 'install', '-n'], { cwd: dir });
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^would install the memctx pre-commit hook: /);
    expect(existsSync(join(dir, '.git/hooks/pre-commit'))).toBe(false);
  });
});

describe('what hook install and uninstall say', () => {
  it('installed, already installed, removed, not installed; each action on its own line', async () => {
    const dir = realpathSync(tempDir());
    git(dir, 'init', '-q');
    await runCli(['init'], { cwd: dir });
    const hook = join(dir, '.git/hooks/pre-commit');
    const first = await runCli(['hook', 'install'], { cwd: dir });
    expect(first.stdout.split('\n').slice(0, 2)).toEqual([`installed the memctx pre-commit hook: ${hook}`, `  wrote ${hook}`]);
    expect((await runCli(['hook', 'install'], { cwd: dir })).stdout.split('\n')[0]).toBe(`the memctx pre-commit hook is already installed; nothing changed: ${hook}`);
    expect(await runCli(['hook', 'uninstall'], { cwd: dir })).toEqual({ code: 0, stdout: `removed the memctx pre-commit hook: ${hook}\n  removed ${hook}\n`, stderr: '' });
    expect(await runCli(['hook', 'uninstall'], { cwd: dir })).toEqual({ code: 0, stdout: 'the memctx pre-commit hook is not installed; nothing to remove\n', stderr: '' });
    const json = JSON.parse((await runCli(['--json', 'hook', 'uninstall', '-n'], { cwd: dir })).stdout);
    expect(json).toEqual({ status: 'not-installed', dryRun: true, hook, hooksDir: join(dir, '.git/hooks'), actions: [], warnings: [] });
  });
});
