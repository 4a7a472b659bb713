// index/staged-cli.ts: what `memctx index --staged` prints, as text and as JSON.
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir } from '../../helpers/cli.js';
import { makeMemoryRepo, memoryFile, type TestRepo } from '../../helpers/repo.js';

const made: string[] = [];
afterEach(() => {
  while (made.length) removeDir(made.pop()!);
});
function track<T extends { base: string }>(repo: T): T {
  made.push(repo.base);
  return repo;
}

function addAuthMemory(repo: TestRepo, rel = '.memory/project_auth.md', cwd?: string): void {
  repo.write(rel, memoryFile('Auth refactor', 'Backend auth migration status'));
  repo.gitOk(['add', rel], cwd);
}

describe('memctx index --staged: the report', () => {
  it('index --staged with nothing staged exits 0 quickly and prints nothing', async () => {
    const repo = track(await makeMemoryRepo());
    repo.write('.memory/project_auth.md', memoryFile('Auth refactor', 'Backend auth migration status'));
    const result = await repo.memctx(['index', '--staged']);
    expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
    const json = await repo.memctx(['--json', 'index', '--staged']);
    expect(JSON.parse(json.stdout)).toEqual({ touched: [], rebuilt: false, changed: false, staged: false, files: 0 });
  });

  it('index --staged --json reports what it staged', async () => {
    const repo = track(await makeMemoryRepo());
    addAuthMemory(repo);
    const json = await repo.memctx(['--json', 'index', '--staged']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ touched: ['.memory/project_auth.md'], rebuilt: true, changed: true, staged: true, files: 2, problems: [] });
    expect(repo.gitOk(['diff', '--cached', '--name-only']).split('\n').filter(Boolean)).toEqual(['.memory/MEMORY.md', '.memory/project_auth.md']);
    expect(repo.gitOk(['diff', '--name-only'])).toBe('');
  });
});
