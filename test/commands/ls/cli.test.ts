// ls/cli.ts: what `memctx ls` prints and its exit code (ls.test.ts holds the filters).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFixture, tempDir } from '../../helpers/cli.js';
import { run, workspace } from '../../helpers/actions.js';

describe('memctx ls', () => {
  it('lists every file as a table', async () => {
    const { cwd } = workspace('claude-memory');
    expect(await run(cwd, ['ls'])).toEqual({
      code: 0,
      stderr: '',
      stdout: [
        'api-conventions.md         reference  -  2026-02-18T08:00:00.000Z  api-conventions — REST naming, error envelope and pagination rules for new endpoints',
        'db-migration-plan.md       project    -  2026-03-02T10:15:00.000Z  db-migration-plan — Moving the auth tables to Postgres 16 in three steps',
        'deploy-checklist.md        feedback   -  2026-02-27T17:40:00.000Z  deploy-checklist — Always run the smoke suite before promoting a canary',
        'feedback_pr-size.md        feedback   -  -                         Small pull requests — One bundled PR is fine for refactors; otherwise keep PRs under 400 lines',
        'feedback_testing.md        feedback   -  -                         Integration tests hit a real database — Never mock the database in integration tests',
        'project_release-freeze.md  project    -  -                         Release freeze — Merge freeze from 2026-03-05 for the mobile release cut',
        'reference_dashboards.md    reference  -  -                         Latency dashboard — grafana.internal/d/api-latency is what on-call watches',
        'user_role.md               user       -  -                         User role — Senior backend engineer; new to the React side of this repo',
        '',
      ].join('\n'),
    });
  });

  it('--json gives each file’s fields', async () => {
    const { cwd } = workspace();
    const files = JSON.parse((await run(cwd, ['--json', 'ls', '--tag', 'security'])).stdout);
    expect(files).toEqual([
      { path: 'project_auth.md', name: 'Auth Refactor', description: 'Backend auth migration status', type: 'project', kind: 'decision', updated: '2026-11-21T15:30:12Z', importance: 8, tags: ['auth', 'security'] },
    ]);
    const plain = JSON.parse((await run(cwd, ['--json', 'ls', '--type', 'other'])).stdout)[0];
    expect(plain).toEqual({ path: 'scratch_notes.md', name: 'scratch_notes', description: '', type: null, kind: null, updated: null, importance: 5, tags: [] });
  });

  it('lists the good files of a broken directory, reports the rest, exits 1', async () => {
    const cwd = tempDir();
    copyFixture('broken', cwd);
    const result = await run(cwd, ['--dir', 'broken', 'ls']);
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n').map((l) => l.split(' ')[0])).toEqual(['bom.md', 'crlf.md', 'empty.md', 'no_frontmatter.md', '']);
    expect(result.stderr.split('\n').filter((l) => l.includes(': error: '))).toHaveLength(11);
    const json = await run(cwd, ['--dir', 'broken', '--json', 'ls']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toHaveLength(4);
  });

  it('prints nothing for an empty directory', async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, '.memory'));
    expect(await run(cwd, ['ls'])).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await run(cwd, ['--json', 'ls'])).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
  });
});
