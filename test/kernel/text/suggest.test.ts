import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMemctx } from '../../helpers/run.js';
import { copyFixture, removeDir, tempDir } from '../../helpers/cli.js';
import { closestMatch, editDistance } from '../../../src/kernel/text/suggest.js';

describe('a mistyped filter value is an error with a "did you mean", never an empty list', () => {
  let root: string;
  let dir: string;
  beforeAll(() => {
    root = tempDir();
    dir = copyFixture('seed-memory', root);
  });
  afterAll(() => removeDir(root));

  it('ls --type projects', async () => {
    const r = await runMemctx(['--dir', dir, 'ls', '--type', 'projects'], { cwd: root });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('--type must be one of user, feedback, project, reference, other');
    expect(r.stderr).toContain('got "projects"');
    expect(r.stderr).toContain('did you mean --type project?');
  });

  it('ls --kind sesion', async () => {
    const r = await runMemctx(['--dir', dir, 'ls', '--kind', 'sesion'], { cwd: root });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--kind must be one of decision, issue, state, learning, session, note');
    expect(r.stderr).toContain('did you mean --kind session?');
  });

  it('search --type x lists the allowed values (nothing is close)', async () => {
    const r = await runMemctx(['--dir', dir, 'search', 'auth', '--type', 'x'], { cwd: root });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--type must be one of user, feedback, project, reference, other');
    expect(r.stderr).not.toContain('did you mean');
  });

  it('search --kind desicion', async () => {
    const r = await runMemctx(['--dir', dir, 'search', 'auth', '--kind', 'desicion'], { cwd: root });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('did you mean --kind decision?');
  });

  it('valid values still work, in any case', async () => {
    const r = await runMemctx(['--dir', dir, 'ls', '--type', 'Project', '--json'], { cwd: root });
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout) as { type: string }[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((f) => f.type === 'project')).toBe(true);
  });

  it('status --format and --encoding typos say what was meant', async () => {
    const r = await runMemctx(['status', '-', '--format', 'claud'], { cwd: root, input: 'hello' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--format must be one of claude, codex, gemini, openai, text, got "claud"');
    expect(r.stderr).toContain('did you mean --format claude?');
  });
});

describe('closestMatch', () => {
  it('finds the nearest known value within a few edits, else nothing', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(closestMatch('projects', ['user', 'project'])).toBe('project');
    expect(closestMatch('x', ['user', 'project'])).toBeUndefined();
    expect(closestMatch('SESION', ['session'])).toBe('session');
  });
});
