// index/staged.ts: `memctx index --staged` in a repository with no memory directory of its own, and in
// one with no working tree (test/commands/hook/hook.test.ts runs it as the pre-commit hook in real commits).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir } from '../../helpers/cli.js';
import { runCli } from '../../helpers/run.js';
import { makeRepo } from '../../helpers/repo.js';

const made: string[] = [];
afterEach(() => {
  while (made.length) removeDir(made.pop()!);
});
function track<T extends { base: string }>(repo: T): T {
  made.push(repo.base);
  return repo;
}

describe('bad input', () => {
  it('a memory directory found above the repository is not this repository\'s: nothing indexed, no error', async () => {
    const repo = track(await makeRepo('nested/repo'));
    mkdirSync(join(repo.base, 'nested/.memory'), { recursive: true });
    const result = await repo.memctx(['index', '--staged']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('is outside this repository');
  });

  it('a bare repository has no working tree to index', async () => {
    const repo = track(await makeRepo());
    const bare = join(repo.base, 'bare.git');
    repo.gitOk(['clone', '-q', '--bare', repo.top, bare]);
    const result = await runCli(['index', '--staged'], { cwd: bare, env: repo.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('not in a git working tree');
  });
});
