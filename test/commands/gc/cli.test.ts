// gc/cli.ts: gc with the configuration's thresholds, and what it prints (gc.test.ts holds the candidates and the moves).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
import { runCli } from '../../helpers/run.js';
import { doc, VALID } from '../../helpers/lint.js';

function project(files: Record<string, string>): string {
  const cwd = tempDir('memctx-gc-cli-');
  mkdirSync(join(cwd, '.memory'));
  for (const [rel, text] of Object.entries(files)) writeFileSync(join(cwd, '.memory', rel), text);
  return cwd;
}

describe('memctx gc: thresholds and wording', () => {
  it('nothing due: says so, as text and as JSON', async () => {
    const cwd = project({ 'keep.md': doc(VALID) });
    expect(await runCli(['gc'], { cwd })).toEqual({ code: 0, stdout: 'nothing to archive\n', stderr: '' });
    expect(JSON.parse((await runCli(['--json', 'gc'], { cwd })).stdout)).toEqual({ apply: false, candidates: [] });
  });

  it("takes its thresholds from the configuration; one file is one file", async () => {
    const recent = new Date(Date.now() - 20 * 86_400_000).toISOString().slice(0, 10);
    const cwd = project({ 'decision.md': doc({ ...VALID, kind: 'decision', importance: 3, updated: recent }) });
    expect((await runCli(['gc'], { cwd })).stdout).toBe('nothing to archive\n');
    writeFileSync(join(cwd, 'memctx.config.json'), JSON.stringify({ thresholds: { decisionMaxAgeDays: 10 } }));
    const out = (await runCli(['gc'], { cwd })).stdout.split('\n');
    expect(out[0]).toMatch(/^decision\.md {2}decision of importance 3 \(at most 5\) last updated \S+, \d+ days ago \(over 10\)$/);
    expect(out.slice(1)).toEqual(['1 file would be moved to archive/; run `memctx gc --apply` to move them', '']);
    expect((await runCli(['--quiet', 'gc', '--apply'], { cwd })).stdout).toBe('');
    expect(existsSync(join(cwd, '.memory/archive/decision.md'))).toBe(true);
    writeFileSync(join(cwd, 'memctx.config.json'), JSON.stringify({ thresholds: { decisionMaxAgeDays: 'ten' } }));
    expect(await runCli(['gc'], { cwd })).toMatchObject({ code: 2, stdout: '' });
  });
});
