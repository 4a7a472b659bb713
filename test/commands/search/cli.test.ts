// search/cli.ts: `memctx search` on the pack fixture: its table, --json, --open and refusals.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { copyFixture, removeDir, tempDir, stateOf } from '../../helpers/cli.js';
import { runCli } from '../../helpers/run.js';

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) removeDir(d);
  dirs = [];
});

function fixture(): string {
  const root = tempDir();
  dirs.push(root);
  return copyFixture('pack-basic', root);
}

const json = (stdout: string) => JSON.parse(stdout);

describe('memctx search', () => {
  it('ranks matching files and prints how to open them', async () => {
    const cwd = fixture();
    const r = await runCli(['search', 'safari cookie'], { cwd });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^score +path +name$/);
    expect(r.stdout).toContain('issue_login_loop.md');
    expect(r.stdout).not.toContain('user_prefs.md');
    expect(r.stderr).toContain('open one with: memctx show PATH');
  });

  it('gives every factor in --json and applies the filters', async () => {
    const cwd = fixture();
    const hits = json((await runCli(['--json', 'search', 'auth', '--kind', 'decision'], { cwd })).stdout);
    expect(hits.map((h: { path: string }) => h.path)).toEqual(['project_auth.md']);
    expect(Object.keys(hits[0].factors)).toEqual(['text', 'importance', 'recency', 'access']);
    expect(json((await runCli(['--json', 'search', 'auth', '--min-importance', '9'], { cwd })).stdout)).toEqual([]);
    const since = json((await runCli(['--json', 'search', 'auth', '--since', '2026-02-02'], { cwd })).stdout).map((h: { path: string }) => h.path);
    expect(since.sort()).toEqual(['issue_login_loop.md', 'sessions/2026-02-03T101500-auth-safari.md']);
    expect(json((await runCli(['--json', 'search', 'auth', '--limit', '1'], { cwd })).stdout)).toHaveLength(1);
  });

  it('counts an opened hit as an access, and so does show', async () => {
    const cwd = fixture();
    const r = await runCli(['search', 'rotation runbook', '--open', '--type', 'reference'], { cwd });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(readFileSync(join(cwd, '.memory/reference_keys.md'), 'utf8'));
    await runCli(['show', 'reference_keys'], { cwd });
    const stats = JSON.parse(readFileSync(join(stateOf(join(cwd, '.memory')), 'stats.json'), 'utf8'));
    expect(stats.files['reference_keys.md'].count).toBe(2);
    const hit = json((await runCli(['--json', 'search', 'rotation runbook'], { cwd })).stdout).find((h: { path: string }) => h.path === 'reference_keys.md');
    expect(hit.factors.access).toBeCloseTo(0.2, 12);
  });

  it('says so when nothing matches', async () => {
    const cwd = fixture();
    const r = await runCli(['search', 'kubernetes'], { cwd });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('no memory file matches "kubernetes"\n');
    expect(existsSync(join(stateOf(join(cwd, '.memory')), 'stats.json'))).toBe(false);
  });

  it.each([
    [['--min-importance', '0'], '--min-importance must be a whole number from 1 to 10, got 0'],
    [['--min-importance', 'high'], '--min-importance must be a whole number from 1 to 10, got "high"'],
    [['--since', 'last tuesday'], '--since must be a date (2026-11-01) or a period (12h, 7d, 2w), got "last tuesday"'],
    [['--limit', '0'], '--limit must be a whole number from 1 to 100, got 0'],
    [['--limit', '2.5'], '--limit must be a whole number from 1 to 100, got 2.5'],
  ])('refuses %j with exit 2', async (args, message) => {
    const cwd = fixture();
    const r = await runCli(['search', 'auth', ...args], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`memctx: error: ${message}`);
  });

  it('refuses a query without words', async () => {
    const cwd = fixture();
    const r = await runCli(['search', ' -- '], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the search query has no words in it');
  });
});
