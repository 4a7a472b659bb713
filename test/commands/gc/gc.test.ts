import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, stateOf } from '../../helpers/cli.js';
import { runCli } from '../../helpers/run.js';
import { doc, VALID } from '../../helpers/lint.js';

function write(dir: string, rel: string, text: string): void {
  mkdirSync(dirname(join(dir, rel)), { recursive: true });
  writeFileSync(join(dir, rel), text);
}

/** A tidy memory directory: files plus the MEMORY.md `memctx index` writes. */
async function tidy(files: Record<string, string>): Promise<{ root: string; mem: string }> {
  const root = tempDir('memctx-gc-');
  const mem = join(root, '.memory');
  mkdirSync(mem);
  for (const [rel, text] of Object.entries(files)) write(mem, rel, text);
  expect((await runCli(['index'], { cwd: root })).code).toBe(0);
  return { root, mem };
}

describe('memctx gc', () => {
  const old = { ...VALID, kind: 'decision', importance: 3, updated: '2020-01-01' };
  async function withCandidates() {
    return await tidy({
      'old_decision.md': doc({ ...old, name: 'Old decision' }),
      'tasks/auth/resolved.md': doc({ ...VALID, name: 'Resolved bug', kind: 'issue', status: 'resolved', updated: '2020-02-01' }),
      'expired.md': doc({ ...VALID, name: 'Expired', expires: '2020-03-01' }),
      'learning.md': doc({ ...VALID, name: 'Learning', kind: 'learning', updated: '2020-01-01' }),
      'keep.md': doc({ ...VALID, name: 'Keep', kind: 'decision', importance: 9, updated: '2020-01-01' }),
    });
  }

  it('dry run by default: lists each candidate with its reason and moves nothing', async () => {
    const ws = await withCandidates();
    const res = await runCli(['gc'], { cwd: ws.root });
    expect(res.code).toBe(0);
    const out = res.stdout.split('\n');
    expect(out[0]).toMatch(/^expired\.md {14}expired on 2020-03-01$/);
    expect(out[1]).toMatch(/^learning\.md {13}learning with no recorded access, last updated 2020-01-01, \d+ days ago \(over 180\)$/);
    expect(out[2]).toMatch(/^old_decision\.md {9}decision of importance 3 \(at most 5\) last updated 2020-01-01, \d+ days ago \(over 90\)$/);
    expect(out[3]).toMatch(/^tasks\/auth\/resolved\.md {2}resolved issue last updated 2020-02-01, \d+ days ago \(over 30\)$/);
    expect(out[4]).toBe('4 files would be moved to archive/; run `memctx gc --apply` to move them');
    expect(existsSync(join(ws.mem, 'archive'))).toBe(false);
    const json = JSON.parse((await runCli(['--json', 'gc'], { cwd: ws.root })).stdout);
    expect(json.apply).toBe(false);
    expect(json.candidates.map((c: { path: string; rule: string; to: string }) => `${c.path} ${c.rule} ${c.to}`)).toEqual([
      'expired.md expired archive/expired.md',
      'learning.md unused-learning archive/learning.md',
      'old_decision.md old-decision archive/old_decision.md',
      'tasks/auth/resolved.md resolved-issue archive/tasks/auth/resolved.md',
    ]);
  });

  it('access statistics keep a recently used learning', async () => {
    const ws = await withCandidates();
    writeFileSync(join(stateOf(ws.mem), 'stats.json'), JSON.stringify({ files: { 'learning.md': { count: 3, last: new Date().toISOString() } } }));
    expect((await runCli(['gc'], { cwd: ws.root })).stdout).not.toContain('learning.md');
  });

  it('--apply moves candidates to archive/ keeping relative paths, then re-indexes; never deletes', async () => {
    const ws = await withCandidates();
    const texts = Object.fromEntries(['old_decision.md', 'tasks/auth/resolved.md'].map((p) => [p, readFileSync(join(ws.mem, p), 'utf8')]));
    const res = await runCli(['gc', '--apply'], { cwd: ws.root });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('archived tasks/auth/resolved.md → archive/tasks/auth/resolved.md (resolved issue last updated 2020-02-01');
    expect(res.stdout.trim().split('\n').pop()).toBe('4 files moved to archive/; MEMORY.md rebuilt');
    for (const [p, text] of Object.entries(texts)) {
      expect(existsSync(join(ws.mem, p))).toBe(false);
      expect(readFileSync(join(ws.mem, 'archive', p), 'utf8')).toBe(text);
    }
    const index = readFileSync(join(ws.mem, 'MEMORY.md'), 'utf8');
    expect(index).toContain('(keep.md)');
    expect(index).not.toContain('old_decision.md');
    expect((await runCli(['index', '--check'], { cwd: ws.root })).code).toBe(0);
    expect((await runCli(['gc', '--apply'], { cwd: ws.root })).stdout).toBe('nothing to archive\n');
  });

  it('--apply never overwrites a file already in archive/: reports it, skips it, exit 1', async () => {
    const ws = await withCandidates();
    write(ws.mem, 'archive/old_decision.md', 'the archived copy\n');
    const original = readFileSync(join(ws.mem, 'old_decision.md'), 'utf8');
    const res = await runCli(['gc', '--apply'], { cwd: ws.root });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('old_decision.md: warning: not archived: archive/old_decision.md already exists; never overwritten (rename or remove one of them)');
    expect(readFileSync(join(ws.mem, 'archive/old_decision.md'), 'utf8')).toBe('the archived copy\n');
    expect(readFileSync(join(ws.mem, 'old_decision.md'), 'utf8')).toBe(original);
    expect(existsSync(join(ws.mem, 'archive/expired.md'))).toBe(true);
    expect(res.stdout).toContain('3 files moved to archive/; MEMORY.md rebuilt');
    const json = JSON.parse((await runCli(['--json', 'gc', '--apply'], { cwd: ws.root })).stdout);
    expect(json).toMatchObject({ apply: true, moved: [], skipped: [{ path: 'old_decision.md', to: 'archive/old_decision.md', moved: false }] });
  });
});
