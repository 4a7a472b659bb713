// show/cli.ts: what `memctx show` prints, as text and as JSON (show.test.ts holds its refusals).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFixture, FIXTURES, tempDir } from '../../helpers/cli.js';
import { read } from '../../helpers/cli-util.js';
import { run, workspace } from '../../helpers/actions.js';

describe('memctx show', () => {
  it('prints the file as it is, BOM and CRLF included', async () => {
    const { cwd, root } = workspace();
    expect(await run(cwd, ['show', 'project_auth'])).toEqual({ code: 0, stdout: read(join(root, 'project_auth.md')), stderr: '' });
    const broken = tempDir();
    copyFixture('broken', broken);
    expect((await run(broken, ['--dir', 'broken', 'show', 'crlf.md'])).stdout).toBe(read(join(FIXTURES, 'broken/crlf.md')));
    expect((await run(broken, ['--dir', 'broken', 'show', 'bom.md'])).stdout).toBe(read(join(FIXTURES, 'broken/bom.md')));
    expect((await run(cwd, ['show', 'MEMORY.md'])).stdout).toBe(read(join(root, 'MEMORY.md')));
  });

  it('--json gives the parsed file', async () => {
    const { cwd } = workspace('claude-memory');
    const file = JSON.parse((await run(cwd, ['--json', 'show', 'db-migration-plan.md'])).stdout);
    expect(file).toMatchObject({
      path: 'db-migration-plan.md',
      name: 'db-migration-plan',
      type: 'project',
      updated: '2026-03-02T10:15:00.000Z',
      data: { name: 'db-migration-plan', description: 'Moving the auth tables to Postgres 16 in three steps', metadata: { type: 'project', confidence: 'high' }, modified: '2026-03-02T10:15:00.000Z' },
      links: [{ kind: 'markdown', target: 'project_release-freeze.md', line: 12 }, { kind: 'wiki', target: 'api-conventions', line: 14 }],
      format: { bom: false, eol: '\n', dateKey: 'modified' },
    });
  });

  it('--json on MEMORY.md gives its text in JSON', async () => {
    const { cwd, root } = workspace();
    expect(JSON.parse((await run(cwd, ['--json', 'show', 'MEMORY.md'])).stdout)).toEqual({ path: 'MEMORY.md', text: read(join(root, 'MEMORY.md')) });
  });
});
