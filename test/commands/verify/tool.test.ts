import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { callTool, connectInProcess } from '../../helpers/mcp.js';
import { makeMemoryRepo } from '../../helpers/repo.js';

describe('the verify tool', () => {
  it('stamps the given /memories files with HEAD and names the ones it could not', async () => {
    const repo = await makeMemoryRepo();
    const root = join(repo.top, '.memory');
    const client = await connectInProcess(root, repo.top);
    const head = repo.gitOk(['rev-parse', 'HEAD']).trim();
    const answer = await callTool(client, 'verify', { paths: ['/memories/user_prefs.md', '/memories/gone.md'] });
    expect(answer.structured).toEqual({
      commit: head,
      verified: ['/memories/user_prefs.md'],
      problems: [{ file: '/memories/gone.md', message: 'no memory file gone.md' }],
    });
    expect(readFileSync(join(root, 'user_prefs.md'), 'utf8')).toContain(`verified: ${head}\n`);
    await client.close();
  });
});

describe('memory tool writes record verified', () => {
  it('create and str_replace set verified: to HEAD', async () => {
    const repo = await makeMemoryRepo();
    const root = join(repo.top, '.memory');
    const client = await connectInProcess(root, repo.top);
    const head = repo.gitOk(['rev-parse', 'HEAD']).trim();
    await callTool(client, 'memory', { command: 'create', path: '/memories/notes.md', file_text: 'Tokens live in `README.md`.\n' });
    expect(readFileSync(join(root, 'notes.md'), 'utf8')).toContain(`verified: ${head}\n`);
    repo.gitOk(['add', '-A']);
    repo.gitOk(['commit', '-q', '-m', 'notes']);
    const next = repo.gitOk(['rev-parse', 'HEAD']).trim();
    await callTool(client, 'memory', { command: 'str_replace', path: '/memories/notes.md', old_str: 'live in `README', new_str: 'are kept in `README' });
    expect(readFileSync(join(root, 'notes.md'), 'utf8')).toContain(`verified: ${next}\n`);
    await client.close();
  });
});
