import { beforeEach, describe, expect, it } from 'vitest';
import { actionProject, now, run, workspace } from '../../helpers/actions.js';
import { ls } from '../../../src/commands/ls/ls.js';

describe('memctx ls', () => {
  it('filters by --type, --kind and --tag', async () => {
    const { cwd } = workspace();
    const paths = async (args: string[]) => (JSON.parse((await run(cwd, ['--json', 'ls', ...args])).stdout) as { path: string }[]).map((f) => f.path);
    expect(await paths(['--type', 'project'])).toEqual(['project_auth.md', 'project_db.md', 'project_login_bug.md', 'tasks/auth-refactor/notes.md', 'tasks/auth-refactor/refresh-rotation.md', 'tasks/flaky-ci/notes.md']);
    expect(await paths(['--type', 'other'])).toEqual([
      'scratch_notes.md',
      'sessions/2026-11-14T091500-db-choice.md', 'sessions/2026-11-15T140200-migrations.md', 'sessions/2026-11-17T103000-users-table.md',
      'sessions/2026-11-18T162000-backfill.md', 'sessions/2026-11-19T110500-jwt-issuing.md', 'sessions/2026-11-20T173000-safari-bug.md',
      'sessions/2026-11-21T153012-auth-refactor.md',
    ]);
    expect(await paths(['--kind', 'decision'])).toEqual(['project_auth.md', 'tasks/auth-refactor/refresh-rotation.md']);
    expect(await paths(['--kind', 'session'])).toHaveLength(7);
    expect(await paths(['--tag', 'AUTH'])).toEqual(['project_auth.md', 'project_login_bug.md']);
    expect(await paths(['--type', 'project', '--kind', 'issue', '--tag', 'bug'])).toEqual(['project_login_bug.md']);
    expect(await paths(['--archive', '--kind', 'state'])).toEqual(['archive/project_old-sessions.md', 'project_db.md']);
  });
});

describe('the command actions, called without the CLI', () => {
  let root: string;
  beforeEach(async () => ({ root } = await actionProject()));

  it('ls filters', async () => {
    expect((await ls({ root, tag: 'login' }, { now })).files.map((f) => f.path)).toEqual(['auth.md']);
    expect((await ls({ root, tag: 'other' }, { now })).files).toEqual([]);
  });
});
