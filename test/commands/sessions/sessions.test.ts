import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
import { runCli } from '../../helpers/run.js';

let project: string;

beforeEach(async () => {
  project = tempDir();
  expect((await runCli(['init'], { cwd: project })).code).toBe(0);
});

describe('memctx sessions', () => {
  const write = (name: string, fm: string, decisions: string) =>
    writeFileSync(join(project, '.memory', 'sessions', name), `---\nname: ${name}\ndescription: d\ntype: project\nkind: session\n${fm}---\n\n## Goal\n\nGoal of ${name}\n\n## Progress\n\nnone recorded\n\n## Decisions\n\n${decisions}\n\n## Changed Files\n\nnone recorded\n\n## Blockers\n\nnone recorded\n\n## Next Steps\n\nnone recorded\n`);

  beforeEach(() => {
    mkdirSync(join(project, '.memory', 'sessions'), { recursive: true });
    write('a.md', 'created: 2026-11-01T09:00:00Z\nupdated: 2026-11-01T09:00:00Z\nsession_id: s-a\nagent: codex\nmodel: gpt-5.5\nstarted: 2026-11-01T08:00:00Z\nended: 2026-11-01T09:00:00Z\n', '- Keep SQLite because the data fits in one file');
    write('b.md', 'created: 2026-11-20T09:00:00Z\nupdated: 2026-11-20T09:00:00Z\nended: 2026-11-20T09:00:00Z\n', '- Use a token bucket instead of a fixed window\n- Retry once on timeout');
    write('c.md', 'created: 2026-11-22T09:00:00Z\nupdated: 2026-11-22T09:00:00Z\n', 'none recorded');
  });
  const run = (args: string[]) => runCli(args, { cwd: project });

  it('lists the session files, newest first, with what each records of its session (--json)', async () => {
    const r = await run(['--json', 'sessions']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([
      { path: 'sessions/c.md', at: '2026-11-22T09:00:00Z', session_id: null, agent: null, model: null, started: null, ended: null, goal: 'Goal of c.md' },
      { path: 'sessions/b.md', at: '2026-11-20T09:00:00Z', session_id: null, agent: null, model: null, started: null, ended: '2026-11-20T09:00:00Z', goal: 'Goal of b.md' },
      { path: 'sessions/a.md', at: '2026-11-01T09:00:00Z', session_id: 's-a', agent: 'codex', model: 'gpt-5.5', started: '2026-11-01T08:00:00Z', ended: '2026-11-01T09:00:00Z', goal: 'Goal of a.md' },
    ]);
  });

  it('prints one field across recent sessions: --field decisions --since leaves out older ones and empty fields', async () => {
    const r = await runCli(['sessions', '--field', 'decisions', '--since', '2026-11-10'], { cwd: project });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('sessions/b.md  2026-11-20T09:00:00Z  Goal of b.md\n- Use a token bucket instead of a fixed window\n- Retry once on timeout\n');
    const all = await runCli(['--json', 'sessions', '--field', 'Decisions', '--since', '3650d'], { cwd: project });
    expect(JSON.parse(all.stdout).map((s: { path: string; decisions: string[] }) => [s.path, s.decisions])).toEqual([
      ['sessions/c.md', []],
      ['sessions/b.md', ['Use a token bucket instead of a fixed window', 'Retry once on timeout']],
      ['sessions/a.md', ['Keep SQLite because the data fits in one file']],
    ]);
  });

  it('a field the template does not have, or a --since that is no span or date, is a usage error (exit 2)', async () => {
    const field = await runCli(['sessions', '--field', 'mood'], { cwd: project });
    expect(field.code).toBe(2);
    expect(field.stderr).toContain('--field: the session template has no field "mood"');
    const since = await runCli(['sessions', '--since', 'last week'], { cwd: project });
    expect(since.code).toBe(2);
    expect(since.stderr).toContain('--since: "last week" is neither a span (30m, 12h, 14d, 2w) nor a date');
  });
});
