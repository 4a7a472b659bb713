import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runMemctx } from '../../../helpers/run.js';
import { copyFixture, removeDir, tempDir } from '../../../helpers/cli.js';

const NOW = new Date('2026-11-21T15:30:12Z');
const base = ['--name', 'Login loop', '--description', 'Users bounce between login and home', '--type', 'project'];

describe('add sets every frontmatter field of design §2, validated as lint validates them', () => {
  let root: string;
  let dir: string;
  beforeEach(() => {
    root = tempDir();
    dir = copyFixture('seed-memory', root);
  });
  afterEach(() => removeDir(root));

  it('writes status, severity, related, pinned, expires, created, importance, tags and --field extras', async () => {
    const r = await runMemctx(
      ['--dir', dir, 'add', 'issue_login', ...base, '--kind', 'issue', '--status', 'open', '--severity', 'high', '--importance', '8', '--tag', 'auth', '--related', 'project_auth.md', '--related', 'user_prefs.md', '--pinned', '--expires', '2027-01-01', '--created', '2026-11-01', '--field', 'owner=alice', '--field', 'attempts=3', '--field', 'aliases=[login-loop, safari-loop]', '--body', 'Seen on Safari.'],
      { cwd: root, now: NOW },
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, 'issue_login.md'), 'utf8')).toBe(
      [
        '---',
        'name: Login loop',
        'description: Users bounce between login and home',
        'type: project',
        'kind: issue',
        'status: open',
        'severity: high',
        'importance: 8',
        'tags: [auth]',
        'related: [project_auth.md, user_prefs.md]',
        'pinned: true',
        'expires: 2027-01-01',
        'owner: alice',
        'attempts: 3',
        'aliases: [login-loop, safari-loop]',
        'created: 2026-11-01',
        'updated: 2026-11-21T15:30:12Z',
        '---',
        '',
        'Seen on Safari.',
        '',
      ].join('\n'),
    );
    const lint = await runMemctx(['--dir', dir, 'lint', '--format', 'json'], { cwd: root, now: NOW });
    const report = (JSON.parse(lint.stdout) as { filePath: string; messages: { ruleId: string }[] }[]).find((f) => f.filePath.endsWith('/issue_login.md'));
    expect(report?.messages.filter((m) => m.ruleId.startsWith('frontmatter/'))).toEqual([]);
  });

  it.each([
    [['--severity', 'urgent'], '--severity: unknown severity "urgent"; expected one of critical, high, medium, low', 'frontmatter/invalid-kind'],
    [['--status', 'closed'], '--status: unknown status "closed"; expected one of open, resolved, superseded (read as resolved; write `resolved`)', 'frontmatter/invalid-kind'],
    [['--expires', 'next week'], '--expires: "expires" is not an ISO date: "next week"; write it as YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ', 'frontmatter/invalid-date'],
    [['--created', '2026-02-30'], '--created: "created" is not an ISO date: "2026-02-30"; write it as YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ', 'frontmatter/invalid-date'],
    [['--importance', '11'], '--importance: "importance" must be a whole number from 1 to 10 (got 11)', 'frontmatter/importance-range'],
    [['--kind', 'todo'], '--kind: unknown kind "todo"; expected one of decision, issue, state, learning, session, note', 'frontmatter/invalid-kind'],
  ])('refuses %j with the lint rule\'s message and writes nothing', async (extra, message, rule) => {
    const r = await runMemctx(['--dir', dir, 'add', 'bad', ...base, ...extra], { cwd: root, now: NOW });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`memctx: error: ${message}\n  hint: \`memctx lint\` would report this (${rule}); nothing was written\n`);
    expect(() => readFileSync(join(dir, 'bad.md'))).toThrow();
  });

  it('refuses --field for keys that have their own option or that memctx sets', async () => {
    const own = await runMemctx(['--dir', dir, 'add', 'bad', ...base, '--field', 'status=open'], { cwd: root, now: NOW });
    expect(own.code).toBe(2);
    expect(own.stderr).toContain('--field status=… sets a field add manages');
    expect(own.stderr).toContain('use --status instead');
    const plain = await runMemctx(['--dir', dir, 'add', 'bad', ...base, '--field', 'no-equals'], { cwd: root, now: NOW });
    expect(plain.code).toBe(2);
    expect(plain.stderr).toContain('--field must be KEY=VALUE');
  });

  it('accepts a type the configuration allows, as lint does', async () => {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ types: ['user', 'project', 'runbook'] }));
    const r = await runMemctx(['--dir', dir, 'add', 'deploy', '--name', 'Deploy', '--description', 'How to deploy', '--type', 'runbook'], { cwd: root, now: NOW });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});
